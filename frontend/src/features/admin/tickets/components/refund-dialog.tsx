import { DIAGNOSTIC_FEE_CENTS, formatUsd, type AdminTicket } from '@ppr/contracts';
import { useState, type FormEvent } from 'react';
import { Field, Textarea } from '../../../../components/ui/form';
import { toast } from '../../../../lib/toast';
import { AdminDialog } from '../../components/admin-dialog';
import { adminButton } from '../../components/styles';
import { useRefundTicket } from '../api/refund-ticket';
import { toastUpdateError } from '../lib/update-toasts';

/** A full refund of the diagnostic fee through the payment gateway (the refund policy of SPEC section 9). */
export function RefundDialog({
  ticket,
  onClose,
  onUnauthorized,
}: {
  ticket: AdminTicket;
  onClose: () => void;
  onUnauthorized: (error: unknown) => boolean;
}) {
  const [reason, setReason] = useState(ticket.refundEligible ? 'No response within 24 hours of payment' : '');
  const refund = useRefundTicket();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    refund.mutate(
      { ticketId: ticket.id, body: { reason: reason.trim() || null } },
      {
        onSuccess: (result) => {
          toast({
            title: result.refundStatus === 'refunded' ? 'Refund Issued' : 'Refund Pending',
            description:
              result.refundStatus === 'refunded'
                ? `${ticket.reference}: the fee was refunded`
                : `${ticket.reference}: the payment provider is processing the refund`,
          });
          onClose();
        },
        onError: (error) => {
          if (!onUnauthorized(error)) toastUpdateError(error, 'Failed to refund the payment');
        },
      },
    );
  };

  return (
    <AdminDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Refund Diagnostic Fee"
      description={`${ticket.reference} · ${ticket.businessName}. Refunds the full ${formatUsd(DIAGNOSTIC_FEE_CENTS)} fee to the customer's card.`}
    >
      <form onSubmit={onSubmit} className="space-y-4">
        <Field label="Reason (optional)" id="refund-reason">
          <Textarea rows={3} maxLength={500} value={reason} onChange={(event) => setReason(event.target.value)} />
        </Field>
        <div className="flex justify-end gap-2">
          <button type="button" onClick={onClose} className={adminButton.secondary}>
            Cancel
          </button>
          <button type="submit" disabled={refund.isPending} className={adminButton.danger}>
            {refund.isPending ? 'Refunding...' : 'Refund Fee'}
          </button>
        </div>
      </form>
    </AdminDialog>
  );
}

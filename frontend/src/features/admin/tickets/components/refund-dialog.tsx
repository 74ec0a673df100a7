import { DIAGNOSTIC_FEE_CENTS, formatUsd } from '@ppr/contracts';
import { useState } from 'react';
import { Field, Textarea } from '../../../../components/ui/form';
import { toast } from '../../../../lib/toast';
import { useRefundTicket } from '../api/refund-ticket';
import { toastUpdateError } from '../lib/update-toasts';
import { TicketFormDialog, type TicketActionDialogProps } from './ticket-form-dialog';

/** A full refund of the diagnostic fee through the payment gateway (the refund policy of SPEC section 9). */
export function RefundDialog({ ticket, onClose, onUnauthorized }: TicketActionDialogProps) {
  const [reason, setReason] = useState(ticket.refundEligible ? 'No response within 24 hours of payment' : '');
  const refund = useRefundTicket();

  const onSubmit = () => {
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
    <TicketFormDialog
      ticket={ticket}
      title="Refund Diagnostic Fee"
      text={`Refunds the full ${formatUsd(DIAGNOSTIC_FEE_CENTS)} fee to the customer's card.`}
      onClose={onClose}
      onSubmit={onSubmit}
      pending={refund.isPending}
      submitLabel="Refund Fee"
      pendingLabel="Refunding..."
      tone="danger"
    >
      <Field label="Reason (optional)" id="refund-reason">
        <Textarea rows={3} maxLength={500} value={reason} onChange={(event) => setReason(event.target.value)} />
      </Field>
    </TicketFormDialog>
  );
}

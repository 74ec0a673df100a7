import { FREE_DIAGNOSTIC_NOTE, ZERO_COST_NOTE } from '@ppr/contracts';
import { useState } from 'react';
import { Field, Textarea } from '../../../../components/ui/form';
import { toast } from '../../../../lib/toast';
import { useMarkFreeDiagnostic } from '../api/mark-free-diagnostic';
import { useMarkZeroCost } from '../api/mark-zero-cost';
import { toastUpdateError } from '../lib/update-toasts';
import { TicketFormDialog, type TicketActionDialogProps } from './ticket-form-dialog';

export type WaiveKind = 'free' | 'zero';

const COPY = {
  free: {
    title: 'Mark as Free Diagnostic',
    text: 'The diagnostic fee is waived and the ticket shows as Free Diagnostic.',
    defaultNotes: FREE_DIAGNOSTIC_NOTE,
    success: 'Marked as free diagnostic',
    failed: 'Failed to mark ticket as free diagnostic',
  },
  zero: {
    title: 'Mark as $0 Cost',
    text: 'The diagnostic fee is recorded as $0 and the ticket shows as $0 Diagnostic.',
    defaultNotes: ZERO_COST_NOTE,
    success: 'Marked as $0 diagnostic',
    failed: 'Failed to mark ticket as zero-cost',
  },
} as const;

/** The free-diagnostic and $0-cost dialogs (SPEC section 4), with the spec's default notes. */
export function WaiveFeeDialog({ ticket, kind, onClose, onUnauthorized }: TicketActionDialogProps & { kind: WaiveKind }) {
  const copy = COPY[kind];
  const [notes, setNotes] = useState<string>(copy.defaultNotes);
  const free = useMarkFreeDiagnostic();
  const zero = useMarkZeroCost();
  const mutation = kind === 'free' ? free : zero;

  const onSubmit = () => {
    mutation.mutate(
      { ticketId: ticket.id, body: { paymentNotes: notes.trim() || null } },
      {
        onSuccess: () => {
          toast({ title: 'Ticket Updated', description: `${ticket.reference}: ${copy.success}` });
          onClose();
        },
        onError: (error) => {
          if (!onUnauthorized(error)) toastUpdateError(error, copy.failed);
        },
      },
    );
  };

  return (
    <TicketFormDialog
      ticket={ticket}
      title={copy.title}
      text={copy.text}
      onClose={onClose}
      onSubmit={onSubmit}
      pending={mutation.isPending}
      submitLabel="Confirm"
      pendingLabel="Saving..."
    >
      <Field label="Payment notes" id="waive-fee-notes">
        <Textarea rows={3} maxLength={500} value={notes} onChange={(event) => setNotes(event.target.value)} />
      </Field>
    </TicketFormDialog>
  );
}

import { useState } from 'react';
import { Field, Textarea } from '../../../../components/ui/form';
import { toast } from '../../../../lib/toast';
import { useUpdateTicketNotes } from '../api/update-ticket-notes';
import { toastUpdateError } from '../lib/update-toasts';
import { TicketFormDialog, type TicketActionDialogProps } from './ticket-form-dialog';

/** The admin notes of a ticket; customers see them as 'Technician Notes'. */
export function NotesDialog({ ticket, onClose, onUnauthorized }: TicketActionDialogProps) {
  const [notes, setNotes] = useState(ticket.adminNotes ?? '');
  const update = useUpdateTicketNotes();

  const onSubmit = () => {
    update.mutate(
      { ticketId: ticket.id, body: { notes } },
      {
        onSuccess: () => {
          toast({ title: 'Notes Updated', description: `${ticket.reference}: the admin notes were saved` });
          onClose();
        },
        onError: (error) => {
          if (!onUnauthorized(error)) toastUpdateError(error, 'Failed to update admin notes');
        },
      },
    );
  };

  return (
    <TicketFormDialog
      ticket={ticket}
      title="Admin Notes"
      text="The customer sees these notes as Technician Notes."
      onClose={onClose}
      onSubmit={onSubmit}
      pending={update.isPending}
      submitLabel="Save Notes"
      pendingLabel="Saving..."
    >
      <Field label="Notes" id="admin-notes" hint="Up to 5000 characters.">
        <Textarea rows={6} maxLength={5000} value={notes} onChange={(event) => setNotes(event.target.value)} />
      </Field>
    </TicketFormDialog>
  );
}

import type { AdminTicket } from '@ppr/contracts';
import { useState, type FormEvent } from 'react';
import { Field, Textarea } from '../../../../components/ui/form';
import { toast } from '../../../../lib/toast';
import { AdminDialog } from '../../components/admin-dialog';
import { adminButton } from '../../components/styles';
import { useUpdateTicketNotes } from '../api/update-ticket-notes';
import { toastUpdateError } from '../lib/update-toasts';

/** The admin notes of a ticket; customers see them as 'Technician Notes'. */
export function NotesDialog({
  ticket,
  onClose,
  onUnauthorized,
}: {
  ticket: AdminTicket;
  onClose: () => void;
  onUnauthorized: (error: unknown) => boolean;
}) {
  const [notes, setNotes] = useState(ticket.adminNotes ?? '');
  const update = useUpdateTicketNotes();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
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
    <AdminDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Admin Notes"
      description={`${ticket.reference} · ${ticket.businessName}. The customer sees these notes as Technician Notes.`}
    >
      <form onSubmit={onSubmit} className="space-y-4">
        <Field label="Notes" id="admin-notes" hint="Up to 5000 characters.">
          <Textarea rows={6} maxLength={5000} value={notes} onChange={(event) => setNotes(event.target.value)} />
        </Field>
        <div className="flex justify-end gap-2">
          <button type="button" onClick={onClose} className={adminButton.secondary}>
            Cancel
          </button>
          <button type="submit" disabled={update.isPending} className={adminButton.primary}>
            {update.isPending ? 'Saving...' : 'Save Notes'}
          </button>
        </div>
      </form>
    </AdminDialog>
  );
}

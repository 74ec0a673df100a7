import type { AdminTicket } from '@ppr/contracts';
import type { FormEvent, ReactNode } from 'react';
import { AdminDialog } from '../../components/admin-dialog';
import { adminButton } from '../../components/styles';

/** What the tickets tab hands each dialog that changes a ticket. */
export interface TicketActionDialogProps {
  ticket: AdminTicket;
  onClose: () => void;
  /** Handles a lost admin session; true when it did (then no error toast is shown). */
  onUnauthorized: (error: unknown) => boolean;
}

export interface TicketFormDialogProps {
  ticket: AdminTicket;
  title: string;
  /** What the action does; shown after the ticket's reference and business name. */
  text: string;
  onClose: () => void;
  onSubmit: () => void;
  pending: boolean;
  submitLabel: string;
  pendingLabel: string;
  /** `danger` for an action that moves money back. */
  tone?: 'primary' | 'danger';
  /** The form's fields. */
  children: ReactNode;
}

/** The shell of the admin dialogs that change one ticket: its fields, then Cancel and the action's button. */
export function TicketFormDialog({
  ticket,
  title,
  text,
  onClose,
  onSubmit,
  pending,
  submitLabel,
  pendingLabel,
  tone = 'primary',
  children,
}: TicketFormDialogProps) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <AdminDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={title}
      description={`${ticket.reference} · ${ticket.businessName}. ${text}`}
    >
      <form onSubmit={submit} className="space-y-4">
        {children}
        <div className="flex justify-end gap-2">
          <button type="button" onClick={onClose} className={adminButton.secondary}>
            Cancel
          </button>
          <button type="submit" disabled={pending} className={adminButton[tone]}>
            {pending ? pendingLabel : submitLabel}
          </button>
        </div>
      </form>
    </AdminDialog>
  );
}

import { TICKET_STATUSES, type AdminTicket, type Engineer, type TicketStatus } from '@ppr/contracts';
import { Hourglass } from 'lucide-react';
import { UnreadBadge } from '../../../../components/conversation/unread-badge';
import { formatDateTime } from '../../../../lib/format-date';
import { controlClass } from '../../../../components/ui/form';
import { AdminTable } from '../../components/admin-table';
import { adminButton } from '../../components/styles';
import { STATUS_LABELS } from '../../lib/labels';
import { adminPaymentDisplay, PAYMENT_BADGE_CLASS } from '../../lib/payment-display';

export type RowAction = 'conversation' | 'notes' | 'free' | 'zero' | 'refund' | 'history';

export interface TicketsTableProps {
  tickets: readonly AdminTicket[];
  engineers: readonly Engineer[];
  busyTicketId: number | null;
  onStatus: (ticket: AdminTicket, status: TicketStatus) => void;
  onAssign: (ticket: AdminTicket, engineerId: number | null) => void;
  onAction: (ticket: AdminTicket, action: RowAction) => void;
}

function ResponseClock({ ticket }: { ticket: AdminTicket }) {
  const label = {
    none: null,
    due: ticket.responseDueAt ? `Due by ${formatDateTime(ticket.responseDueAt)}` : 'Due',
    overdue: 'Overdue',
    answered: 'Answered',
  }[ticket.responseState];
  if (!label) return <span className="text-slate-600">—</span>;
  const tone = {
    due: 'bg-amber-100 text-amber-900',
    overdue: 'bg-red-100 text-red-900',
    answered: 'bg-green-100 text-green-900',
    none: '',
  }[ticket.responseState];
  return (
    <div className="flex flex-col items-start gap-1">
      <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${tone}`}>{label}</span>
      {ticket.refundEligible ? (
        <span className="rounded-full bg-red-700 px-2 py-0.5 text-xs font-semibold text-white">Refund eligible</span>
      ) : null}
    </div>
  );
}

/** The conversation's state: the customer's unread messages, and whether the customer wrote last. */
export function ConversationState({ ticket }: { ticket: AdminTicket }) {
  if (ticket.unreadMessages <= 0 && !ticket.waitingOnUs) return null;
  return (
    <div className="mt-1.5 flex flex-wrap gap-1">
      <UnreadBadge count={ticket.unreadMessages} />
      {ticket.waitingOnUs ? (
        <span className="inline-flex items-center gap-1 whitespace-nowrap rounded-full border border-amber-700 bg-amber-50 px-2 py-0.5 text-xs font-semibold text-amber-900">
          <Hourglass aria-hidden="true" className="h-3.5 w-3.5" />
          Waiting on us
        </span>
      ) : null}
    </div>
  );
}

function ActionButton({ label, reference, onClick }: { label: string; reference: string; onClick: () => void }) {
  return (
    <button type="button" onClick={onClick} className={adminButton.small}>
      {label}
      <span className="sr-only"> for {reference}</span>
    </button>
  );
}

/** The ticket list. Every control in a row is a native button or select, so the table works from the keyboard. */
export function TicketsTable({ tickets, engineers, busyTicketId, onStatus, onAssign, onAction }: TicketsTableProps) {
  const active = engineers.filter((engineer) => engineer.isActive);
  return (
    <AdminTable label="Support tickets" columns={['Ticket', 'Customer', 'Status', 'Payment', 'Response', 'Engineer', 'Actions']}>
      {tickets.map((ticket) => {
        const payment = adminPaymentDisplay(ticket);
        const busy = busyTicketId === ticket.id;
        const assigned = engineers.find((engineer) => engineer.id === ticket.engineerId);
        const choices = assigned && !assigned.isActive ? [...active, assigned] : active;
        return (
          <tr key={ticket.id} data-ticket-id={ticket.id} className="align-top">
            <td className="px-3 py-3">
              <div className="font-semibold text-slate-900">{ticket.reference}</div>
              <div className="text-slate-700">{ticket.serviceCategory}</div>
              <div className="text-xs text-slate-600">{formatDateTime(ticket.createdAt)}</div>
              <ConversationState ticket={ticket} />
            </td>
            <td className="px-3 py-3">
              <div className="font-semibold text-slate-900">{ticket.businessName}</div>
              <div className="text-slate-700">{ticket.contactName}</div>
              <div className="text-slate-700">{ticket.email}</div>
              <div className="text-slate-700">{ticket.phone}</div>
            </td>
            <td className="px-3 py-3">
              <select
                aria-label={`Status of ${ticket.reference}`}
                value={ticket.status}
                disabled={busy}
                onChange={(event) => onStatus(ticket, event.target.value as TicketStatus)}
                className={`${controlClass} mt-0 min-w-40 py-1`}
              >
                {TICKET_STATUSES.map((status) => (
                  <option key={status} value={status}>
                    {STATUS_LABELS[status]}
                  </option>
                ))}
              </select>
            </td>
            <td className="px-3 py-3">
              <span className={`whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold ${PAYMENT_BADGE_CLASS[payment]}`}>
                {payment}
              </span>
            </td>
            <td className="px-3 py-3">
              <ResponseClock ticket={ticket} />
            </td>
            <td className="px-3 py-3">
              <select
                aria-label={`Engineer for ${ticket.reference}`}
                value={ticket.engineerId ?? ''}
                disabled={busy}
                onChange={(event) => onAssign(ticket, event.target.value ? Number(event.target.value) : null)}
                className={`${controlClass} mt-0 min-w-40 py-1`}
              >
                <option value="">Unassigned</option>
                {choices.map((engineer) => (
                  <option key={engineer.id} value={engineer.id}>
                    {engineer.name}
                    {engineer.isActive ? '' : ' (inactive)'}
                  </option>
                ))}
              </select>
            </td>
            <td className="px-3 py-3">
              <div className="flex flex-wrap gap-1.5">
                <ActionButton label="Conversation" reference={ticket.reference} onClick={() => onAction(ticket, 'conversation')} />
                <ActionButton label="Notes" reference={ticket.reference} onClick={() => onAction(ticket, 'notes')} />
                {payment === 'Not Paid' ? (
                  <>
                    <ActionButton label="Free Diagnostic" reference={ticket.reference} onClick={() => onAction(ticket, 'free')} />
                    <ActionButton label="$0 Cost" reference={ticket.reference} onClick={() => onAction(ticket, 'zero')} />
                  </>
                ) : null}
                {payment === 'Paid' ? (
                  <ActionButton label="Refund" reference={ticket.reference} onClick={() => onAction(ticket, 'refund')} />
                ) : null}
                <ActionButton label="History" reference={ticket.reference} onClick={() => onAction(ticket, 'history')} />
              </div>
            </td>
          </tr>
        );
      })}
    </AdminTable>
  );
}

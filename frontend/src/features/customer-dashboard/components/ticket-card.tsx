import type { CustomerTicket } from '@ppr/contracts';
import { ChevronRight } from 'lucide-react';
import { Link } from 'react-router-dom';
import { UnreadBadge } from '../../../components/conversation/unread-badge';
import { PaymentBadge } from '../../../components/ui/payment-badge';
import { paths } from '../../../config/paths';
import { formatDateTime } from '../../../lib/format-date';
import { categoryName } from '../lib/category-name';
import { statusLabel } from '../lib/status-label';

export function TicketCard({ ticket }: { ticket: CustomerTicket }) {
  const unreadId = `ticket-${ticket.id}-unread`;
  const unread = ticket.unreadMessages > 0;
  return (
    <li className="relative rounded-xl border border-slate-200 bg-white p-5 shadow-sm focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-brand-700 hover:border-brand-700">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="text-lg font-semibold text-slate-900">
            {/* The whole card is clickable through this link's overlay; its text names the ticket. */}
            {/* The unread count is read out with the link's name: the link is what a screen reader lands on. */}
            <Link
              to={paths.ticket.getHref(ticket.id)}
              aria-describedby={unread ? unreadId : undefined}
              className="after:absolute after:inset-0 focus:outline-none"
            >
              {ticket.reference}
            </Link>
          </h3>
          <p className="text-sm text-slate-700">{categoryName(ticket.serviceCategory)}</p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <UnreadBadge count={ticket.unreadMessages} id={unreadId} />
          <span className="inline-flex items-center rounded-full border border-slate-400 bg-slate-50 px-2.5 py-0.5 text-xs font-semibold text-slate-800">
            {statusLabel(ticket.status)}
          </span>
          <PaymentBadge paymentStatus={ticket.paymentStatus} paymentNotes={ticket.paymentNotes} />
        </div>
      </div>
      <p className="mt-3 line-clamp-2 text-slate-700 [overflow-wrap:anywhere]">{ticket.issueDescription}</p>
      <div className="mt-3 flex items-center justify-between text-sm text-slate-600">
        <span>Submitted {formatDateTime(ticket.createdAt)}</span>
        <ChevronRight aria-hidden="true" className="h-5 w-5 text-slate-500" />
      </div>
    </li>
  );
}

import type { TicketDetail } from '@ppr/contracts';
import { ArrowLeft, CreditCard } from 'lucide-react';
import { Link } from 'react-router-dom';
import { PaymentBadge, paymentBadgeLabel } from '../../../components/ui/payment-badge';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { formatDateTime } from '../../../lib/format-date';
import { useTicket } from '../api/get-ticket';
import { useLiveTicket } from '../api/use-live-ticket';
import { categoryName } from '../lib/category-name';
import { progressFor, statusLabel } from '../lib/progress';
import { TicketConversation } from './ticket-conversation';

const backClass = 'inline-flex items-center gap-2 font-semibold text-brand-700 underline hover:text-brand-800';

function BackToDashboard() {
  return (
    <Link to={paths.customerDashboard.getHref()} className={backClass}>
      <ArrowLeft aria-hidden="true" className="h-4 w-4" />
      Back to Dashboard
    </Link>
  );
}

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-sm font-semibold text-slate-700">{label}</dt>
      <dd className="mt-1 whitespace-pre-line [overflow-wrap:anywhere] text-slate-900">{children}</dd>
    </div>
  );
}

/** Payment is still possible while the fee is unpaid and the ticket is open. */
function needsPayment(ticket: TicketDetail): boolean {
  const badge = paymentBadgeLabel(ticket.paymentStatus, ticket.paymentNotes);
  return (
    (badge === 'Payment Needed' || badge === 'Payment Issue') &&
    ticket.paymentStatus !== 'refunded' &&
    ticket.status !== 'canceled' &&
    ticket.status !== 'resolved'
  );
}

export function TicketDetailView({ ticket }: { ticket: TicketDetail }) {
  const percent = progressFor(ticket.status);
  return (
    <>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-slate-900">Ticket {ticket.reference}</h1>
          <p className="mt-1 text-slate-700">{categoryName(ticket.serviceCategory)}</p>
        </div>
        <PaymentBadge paymentStatus={ticket.paymentStatus} paymentNotes={ticket.paymentNotes} />
      </div>

      <div className="mt-8 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <div className="flex items-center justify-between text-sm font-semibold text-slate-800">
          <span id="ticket-progress-label">Status: {statusLabel(ticket.status)}</span>
          <span aria-hidden="true">{percent}%</span>
        </div>
        <div
          role="progressbar"
          aria-labelledby="ticket-progress-label"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-valuetext={`${statusLabel(ticket.status)}, ${percent}%`}
          className="mt-2 h-3 overflow-hidden rounded-full bg-slate-200"
        >
          <div className="h-full rounded-full bg-brand-700" style={{ width: `${percent}%` }} />
        </div>
      </div>

      {needsPayment(ticket) ? (
        <div className="mt-6 flex flex-wrap items-center justify-between gap-4 rounded-xl border border-amber-600 bg-amber-50 p-5">
          <p className="text-amber-900">The diagnostic fee for this request has not been paid yet.</p>
          <Link
            to={paths.paymentForTicket.getHref(ticket.id)}
            className="inline-flex items-center gap-2 rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
          >
            <CreditCard aria-hidden="true" className="h-4 w-4" />
            Proceed to Payment
          </Link>
        </div>
      ) : null}

      <div className="mt-6 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h2 className="text-xl font-semibold text-slate-900">Request Details</h2>
        <dl className="mt-4 grid gap-5 sm:grid-cols-2">
          <Detail label="Business name">{ticket.businessName}</Detail>
          <Detail label="Contact name">{ticket.contactName}</Detail>
          <Detail label="Email">{ticket.email}</Detail>
          <Detail label="Phone">{ticket.phone}</Detail>
          {ticket.address ? <Detail label="Address">{ticket.address}</Detail> : null}
          <Detail label="Service category">{categoryName(ticket.serviceCategory)}</Detail>
          <Detail label="Submitted">{formatDateTime(ticket.createdAt)}</Detail>
          <Detail label="Last updated">{formatDateTime(ticket.lastUpdated)}</Detail>
        </dl>
        <dl className="mt-5">
          <Detail label="Issue description">{ticket.issueDescription}</Detail>
        </dl>
      </div>

      <div className="mt-6 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h2 className="text-xl font-semibold text-slate-900">Technician Notes</h2>
        <p className="mt-3 whitespace-pre-line text-slate-800">
          {ticket.adminNotes?.trim() ? ticket.adminNotes : 'No notes from our technicians yet.'}
        </p>
      </div>
    </>
  );
}

/** /ticket/{id}: one of the customer's tickets. */
export function CustomerTicket({ id }: { id: string }) {
  const ticket = useTicket(id);
  // Status, payment and notes changes made by staff show without a reload (only once the ticket proved ours).
  useLiveTicket(id, ticket.isSuccess);
  return (
    <section className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
      <BackToDashboard />
      <div className="mt-6">
        {ticket.isPending ? (
          <div className="flex justify-center py-16">
            <Spinner label="Loading ticket details..." showLabel />
          </div>
        ) : ticket.isError ? (
          <div role="alert" className="rounded-xl border border-red-700 bg-red-50 p-6 text-red-800">
            <h1 className="text-2xl font-bold">Failed to load ticket details</h1>
            <p className="mt-2">The ticket may not exist or you may not have permission to view it.</p>
          </div>
        ) : (
          <>
            <TicketDetailView ticket={ticket.data} />
            <TicketConversation ticketId={id} />
          </>
        )}
      </div>
    </section>
  );
}

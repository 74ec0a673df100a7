import { BUSINESS_PROFILE, findServiceCategory } from '@ppr/contracts';
import { CircleCheck, Clock, Phone } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Spinner } from '../../../components/ui/spinner';
import { useTicketSummary } from '../api/get-ticket-summary';

export const NEXT_STEPS: readonly string[] = [
  'A Systems Engineer reviews your request and contacts you immediately or within 1 hour.',
  'We diagnose the issue remotely or schedule an onsite visit, whichever suits the problem.',
  'You approve the work and the price before anything beyond the diagnosis begins.',
  'We resolve the issue; your $49 diagnostic fee is credited toward the final bill.',
];

const homeButton = 'inline-block rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800';

/**
 * The confirmation (SPEC section 2): shown only for a ticket the server reports paid (or waived); an unpaid
 * one goes back to the form, whatever the browser remembers.
 */
export function ConfirmationScreen({ ticketId }: { ticketId: number | null }) {
  const navigate = useNavigate();
  const ticket = useTicketSummary(ticketId);
  // Decided on the server's current answer only, never on a cached one being refetched.
  const unpaid = ticket.isSuccess && !ticket.isFetching && ticket.data.paymentStatus !== 'completed';

  useEffect(() => {
    if (unpaid) void navigate('/support-request', { replace: true });
  }, [unpaid, navigate]);

  if (ticketId === null || ticket.isError) {
    return (
      <div role="alert" className="mx-auto max-w-xl rounded-xl border border-red-300 bg-red-50 p-8 text-center">
        <h1 className="text-2xl font-bold text-red-800">Error Loading Confirmation</h1>
        <p className="mt-3 text-slate-800">There was an error loading your ticket information. Please contact support.</p>
        <Link to="/" className={`${homeButton} mt-6`}>
          Return to Home
        </Link>
      </div>
    );
  }
  if (ticket.isPending || unpaid || (ticket.isFetching && ticket.data.paymentStatus !== 'completed'))
    return <Spinner label="Loading your confirmation" showLabel className="py-12" />;

  const summary = ticket.data;
  return (
    <article className="mx-auto max-w-3xl space-y-6">
      <header className="text-center">
        <CircleCheck aria-hidden="true" className="mx-auto h-14 w-14 text-green-700" />
        <p className="mt-3 text-sm font-semibold text-slate-700">Step 3 of 3</p>
        <h1 className="mt-1 text-3xl font-bold text-slate-900">Support Request Confirmed</h1>
      </header>
      <dl className="grid gap-4 rounded-xl border border-slate-200 p-5 sm:grid-cols-2">
        <div>
          <dt className="text-sm font-semibold text-slate-700">Ticket reference</dt>
          <dd className="text-xl font-bold text-slate-900" data-testid="ticket-reference">
            {summary.reference}
          </dd>
        </div>
        <div>
          <dt className="text-sm font-semibold text-slate-700">Status</dt>
          <dd>
            <span className="inline-block rounded-full bg-green-100 px-3 py-1 text-sm font-semibold text-green-800">Active</span>
          </dd>
        </div>
        <div>
          <dt className="text-sm font-semibold text-slate-700">Service category</dt>
          <dd className="text-slate-900">{findServiceCategory(summary.serviceCategory)?.name ?? summary.serviceCategory}</dd>
        </div>
        <div>
          <dt className="text-sm font-semibold text-slate-700">Expected response</dt>
          <dd className="flex items-center gap-2 text-slate-900">
            <Clock aria-hidden="true" className="h-4 w-4 text-brand-700" />
            Within 1 hour
          </dd>
        </div>
        <div className="sm:col-span-2">
          <dt className="text-sm font-semibold text-slate-700">Issue description</dt>
          <dd className="whitespace-pre-line break-words text-slate-900">{summary.issueDescription}</dd>
        </div>
      </dl>
      <section aria-labelledby="next-steps" className="rounded-xl border border-slate-200 p-5">
        <h2 id="next-steps" className="text-lg font-bold text-slate-900">
          What happens next
        </h2>
        <ol className="mt-3 list-decimal space-y-2 pl-5 text-slate-800">
          {NEXT_STEPS.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </section>
      <p className="flex flex-wrap items-center gap-2 rounded-xl bg-brand-50 p-5 text-slate-900">
        <Phone aria-hidden="true" className="h-5 w-5 text-brand-700" />
        Need immediate help? Call{' '}
        <a href={`tel:${BUSINESS_PROFILE.phoneE164}`} className="font-semibold text-brand-700 underline">
          {BUSINESS_PROFILE.phone}
        </a>
      </p>
      <div className="text-center">
        <Link to="/" className={homeButton}>
          Back to Home
        </Link>
      </div>
    </article>
  );
}

import type { CurrentCustomer, CustomerTicket } from '@ppr/contracts';
import * as Tabs from '@radix-ui/react-tabs';
import { Plus, Search } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Input } from '../../../components/ui/form';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { ApiRequestError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useCustomerTickets } from '../api/get-customer-tickets';
import { useLinkTickets } from '../api/link-tickets';
import { useUpdateTicketPayment } from '../api/update-ticket-payment';
import { countTickets, isActiveTicket, isResolvedTicket, matchesSearch, newestFirst } from '../lib/ticket-groups';
import { TicketCard } from './ticket-card';

const tabClass =
  'flex-1 rounded-md px-4 py-2 text-center font-semibold text-slate-700 hover:text-slate-900 data-[state=active]:bg-white data-[state=active]:text-brand-800 data-[state=active]:shadow focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-700';

function StatCard({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <dt className="text-sm font-semibold text-slate-700">{label}</dt>
      <dd className="mt-1 text-3xl font-bold text-slate-900">{value}</dd>
    </div>
  );
}

function TicketList({ tickets, empty }: { tickets: readonly CustomerTicket[]; empty: string }) {
  if (tickets.length === 0)
    return <p className="rounded-xl border border-dashed border-slate-300 p-8 text-center text-slate-700">{empty}</p>;
  return (
    <ul className="grid gap-4">
      {tickets.map((ticket) => (
        <TicketCard key={ticket.id} ticket={ticket} />
      ))}
    </ul>
  );
}

/**
 * Hosted checkout sends a logged-in customer back here with `payment_intent` and `ticket_id` (SPEC section 4):
 * report the payment once, then drop the parameters so a reload does not report it again.
 */
function usePaymentReturn() {
  const [searchParams, setSearchParams] = useSearchParams();
  const update = useUpdateTicketPayment();
  const handled = useRef(false);
  const paymentIntentId = searchParams.get('payment_intent');
  const ticketId = Number(searchParams.get('ticket_id'));

  useEffect(() => {
    if (!paymentIntentId || handled.current) return;
    handled.current = true;
    const clear = () =>
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const key of ['payment_intent', 'payment_intent_client_secret', 'redirect_status', 'ticket_id']) next.delete(key);
          return next;
        },
        { replace: true },
      );
    if (!Number.isInteger(ticketId) || ticketId <= 0) {
      clear();
      return;
    }
    update.mutate(
      { ticketId, paymentIntentId },
      {
        onSuccess: () => toast({ title: 'Payment successful', description: 'Your payment has been received. Thank you!' }),
        onError: (error) =>
          toast({
            title: 'Error',
            description: `Failed to update payment: ${error instanceof ApiRequestError && error.serverMessage ? error.serverMessage : error.message}`,
            variant: 'destructive',
          }),
        onSettled: clear,
      },
    );
  }, [paymentIntentId, ticketId, setSearchParams, update]);

  return update.isPending;
}

/** SPEC section 7: link-tickets runs by itself when the customer has no tickets (only a verified address may link). */
function useAutoLink(customer: CurrentCustomer, tickets: readonly CustomerTicket[] | undefined) {
  const link = useLinkTickets();
  const attempted = useRef(false);
  useEffect(() => {
    if (attempted.current || !tickets || tickets.length > 0 || !customer.emailVerified) return;
    attempted.current = true;
    link.mutate(undefined, {
      onSuccess: ({ linked }) => {
        if (linked > 0) {
          toast({
            title: 'Requests found',
            description: `We added ${linked} earlier request${linked === 1 ? '' : 's'} made with ${customer.email} to your account.`,
          });
        }
      },
    });
  }, [customer, tickets, link]);
  return link.isPending;
}

export interface CustomerDashboardProps {
  customer: CurrentCustomer;
  /** Account actions from the account feature (the logout button). */
  actions?: ReactNode;
  /** A notice above the counts (e.g. "verify your email"). */
  notice?: ReactNode;
}

export function CustomerDashboard({ customer, actions, notice }: CustomerDashboardProps) {
  const tickets = useCustomerTickets();
  const [query, setQuery] = useState('');
  const searchId = useId();
  const recordingPayment = usePaymentReturn();
  const linking = useAutoLink(customer, tickets.data);

  const all = useMemo(() => newestFirst(tickets.data ?? []), [tickets.data]);
  const counts = countTickets(all);
  const shown = all.filter((ticket) => matchesSearch(ticket, query));
  const active = shown.filter(isActiveTicket);
  const resolved = shown.filter(isResolvedTicket);
  const searching = query.trim() !== '';

  return (
    <section className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-slate-900 [overflow-wrap:anywhere]">Welcome, {customer.username}!</h1>
          <p className="mt-1 text-slate-700">Follow your support requests and payments.</p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <Link
            to={paths.supportRequest.getHref()}
            className="inline-flex items-center gap-2 rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800 forced-colors:border"
          >
            <Plus aria-hidden="true" className="h-4 w-4" />
            New Support Request
          </Link>
          {actions}
        </div>
      </div>

      {notice ? <div className="mt-6">{notice}</div> : null}

      {recordingPayment || linking ? (
        <div className="mt-6">
          <Spinner label={recordingPayment ? 'Recording your payment...' : 'Looking for your earlier requests...'} showLabel size="sm" />
        </div>
      ) : null}

      <h2 className="sr-only">Ticket summary</h2>
      <dl className="mt-8 grid gap-4 sm:grid-cols-3">
        <StatCard label="Total Tickets" value={counts.total} />
        <StatCard label="Active Tickets" value={counts.active} />
        <StatCard label="Resolved Tickets" value={counts.resolved} />
      </dl>

      <div className="mt-8">
        <label htmlFor={searchId} className="block text-sm font-semibold text-slate-900">
          Search tickets
        </label>
        <div className="relative">
          <Search
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-3 mt-0.5 h-4 w-4 -translate-y-1/2 text-slate-500"
          />
          <Input
            id={searchId}
            type="search"
            placeholder="Reference, category or description"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            className="pl-9"
          />
        </div>
      </div>

      {tickets.isPending ? (
        <div className="mt-8 flex justify-center">
          <Spinner label="Loading your tickets..." showLabel />
        </div>
      ) : tickets.isError ? (
        <div role="alert" className="mt-8 rounded-lg border border-red-700 bg-red-50 px-4 py-3 text-red-800">
          <p>Failed to load your tickets. Please try again.</p>
          <button type="button" onClick={() => void tickets.refetch()} className="mt-2 font-semibold underline">
            Try again
          </button>
        </div>
      ) : (
        <Tabs.Root defaultValue="active" className="mt-8">
          <Tabs.List aria-label="Tickets by status" className="flex gap-1 rounded-lg bg-slate-100 p-1">
            <Tabs.Trigger value="active" className={tabClass}>
              Active Tickets ({active.length})
            </Tabs.Trigger>
            <Tabs.Trigger value="resolved" className={tabClass}>
              Resolved Tickets ({resolved.length})
            </Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="active" className="mt-6 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-700">
            <TicketList tickets={active} empty={searching ? 'No active tickets match your search.' : 'You have no active tickets.'} />
          </Tabs.Content>
          <Tabs.Content value="resolved" className="mt-6 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-700">
            <TicketList tickets={resolved} empty={searching ? 'No resolved tickets match your search.' : 'You have no resolved tickets.'} />
          </Tabs.Content>
        </Tabs.Root>
      )}
    </section>
  );
}

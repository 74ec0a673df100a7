import { findServiceCategory, formatUsd, paymentMessages, type PublicConfig, type TicketSummary } from '@ppr/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Spinner } from '../../../components/ui/spinner';
import { ApiRequestError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { paymentSetupErrorMessage, usePaymentIntent } from '../api/create-payment-intent';
import { usePublicConfig } from '../api/get-public-config';
import { ticketSummaryQueryOptions, useTicketSummary } from '../api/get-ticket-summary';
import { updatePaymentErrorMessage, useUpdateTicketPayment } from '../api/update-ticket-payment';
import { clearPendingTicket, readPendingTicket, type PendingTicketData } from '../pending-ticket';
import { PaymentUnderWay } from './card-form-parts';
import { SimulatedCardForm } from './simulated-card-form';

const StripeCardForm = lazy(() => import('./stripe-card-form'));

/** SPEC section 4: after a failed payment setup the page goes back to the form after 4 seconds. */
export const SETUP_FAILURE_REDIRECT_MS = 4000;

const backClass = 'rounded-lg border border-brand-700 px-5 py-3 font-semibold text-brand-700 hover:bg-brand-50';

function categoryName(id: string): string {
  return findServiceCategory(id)?.name ?? id;
}

function Summary({ ticket, data }: { ticket: TicketSummary; data: PendingTicketData | null }) {
  const rows: [string, string][] = [
    ...(data
      ? ([
          ['Business', data.businessName],
          ['Contact', data.contactName],
        ] as [string, string][])
      : []),
    ['Service category', categoryName(ticket.serviceCategory)],
    ...(data ? ([['Email', data.email]] as [string, string][]) : []),
  ];
  return (
    <section aria-labelledby="summary-heading" className="rounded-xl border border-slate-200 bg-slate-50 p-5">
      <h2 id="summary-heading" className="text-lg font-bold text-slate-900">
        Request Summary
      </h2>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-semibold text-slate-700">{label}</dt>
            <dd className="break-words text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function Fee({ cents }: { cents: number }) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-2 rounded-xl border border-slate-200 p-5">
      <div>
        <p className="text-sm font-semibold text-slate-700">Diagnostic fee</p>
        <p className="text-3xl font-bold text-slate-900" data-testid="fee">
          {formatUsd(cents)}
        </p>
        <p className="text-sm text-slate-700">Credited toward your final bill once the issue is resolved.</p>
      </div>
      <Link to="/refund-policy" className="text-sm font-semibold text-brand-700 underline">
        Refund policy
      </Link>
    </div>
  );
}

/** The card form of the active gateway, once the payment intent is set up. */
function CardPayment({
  config,
  ticketId,
  email,
  onSucceeded,
}: {
  config: PublicConfig;
  ticketId: number;
  email: string;
  onSucceeded: (paymentIntentId: string) => void;
}) {
  const navigate = useNavigate();
  const intent = usePaymentIntent(ticketId, config.paymentsAvailable);
  const reported = useRef(false);

  useEffect(() => {
    if (!intent.isError || reported.current) return;
    reported.current = true;
    toast({ title: 'Payment setup failed', description: paymentSetupErrorMessage(intent.error), variant: 'destructive' });
    const timer = setTimeout(() => void navigate('/support-request'), SETUP_FAILURE_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [intent.isError, intent.error, navigate]);

  if (!config.paymentsAvailable) {
    return (
      <p role="alert" className="rounded-lg border border-red-300 bg-red-50 p-4 text-red-800">
        {paymentMessages.unavailable}
      </p>
    );
  }
  if (intent.isPending) return <Spinner label="Setting up payment" showLabel className="py-6" />;
  if (intent.isError) {
    return (
      <p role="alert" className="rounded-lg border border-red-300 bg-red-50 p-4 text-red-800">
        Payment setup failed: {paymentSetupErrorMessage(intent.error)}
      </p>
    );
  }
  // A payment of this intent is under way (begun before a reload, or in another tab): it completes by itself.
  if (intent.data.status === 'processing') return <PaymentUnderWay />;
  const props = {
    clientSecret: intent.data.clientSecret,
    ticketId,
    defaultReceiptEmail: email,
    amount: formatUsd(intent.data.amountCents),
    onSucceeded,
  };
  if (config.paymentGateway === 'stripe' && config.stripePublishableKey) {
    return (
      <Suspense fallback={<Spinner label="Setting up payment" showLabel className="py-6" />}>
        <StripeCardForm publishableKey={config.stripePublishableKey} {...props} />
      </Suspense>
    );
  }
  return <SimulatedCardForm {...props} />;
}

/** Whether the ticket still needs its fee, was paid, or had it waived (free or $0 diagnostic). */
export function settlementOf(ticket: TicketSummary): 'unpaid' | 'paid' | 'waived' {
  if (ticket.paymentStatus !== 'completed') return 'unpaid';
  return ticket.paymentDisplay === 'Paid' ? 'paid' : 'waived';
}

/**
 * The payment page (SPEC section 2): /payment pays the pending ticket of this browser session, /payment/:id an
 * existing ticket. Whether there is anything to pay is the server's word (the ticket's payment status), and a
 * payment counts only once the server has verified it with the gateway.
 */
export function PaymentScreen({ ticketId: routeTicketId }: { ticketId?: number }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [pending] = useState(() => readPendingTicket());
  const ticketId = routeTicketId ?? (pending.kind === 'found' ? pending.id : null);
  const data = pending.kind === 'found' && pending.id === ticketId ? pending.data : null;
  const ticket = useTicketSummary(ticketId);
  const config = usePublicConfig();
  const update = useUpdateTicketPayment();
  const handled = useRef(false);

  // No ticket to pay for: back to the form with the spec's toast.
  useEffect(() => {
    if (ticketId !== null || handled.current) return;
    handled.current = true;
    if (pending.kind === 'invalid') {
      clearPendingTicket();
      toast({ title: 'Error', description: 'There was an issue loading your request information.', variant: 'destructive' });
    } else {
      toast({ title: 'No pending request', description: 'Please fill out the support request form first.', variant: 'destructive' });
    }
    void navigate('/support-request', { replace: true });
  }, [ticketId, pending.kind, navigate]);

  useEffect(() => {
    if (!ticket.isError || handled.current) return;
    handled.current = true;
    const notFound = ticket.error instanceof ApiRequestError && ticket.error.status === 404;
    if (notFound && routeTicketId === undefined) clearPendingTicket();
    toast({
      title: 'Error',
      description: notFound ? 'Could not retrieve ticket information.' : 'There was an issue loading your request information.',
      variant: 'destructive',
    });
    void navigate('/support-request', { replace: true });
  }, [ticket.isError, ticket.error, routeTicketId, navigate]);

  const finish = (id: number, options?: { replace: boolean }) => {
    handled.current = true;
    clearPendingTicket();
    queryClient.removeQueries({ queryKey: ticketSummaryQueryOptions(id).queryKey });
    void navigate(`/confirmation/${id}`, options);
  };

  // 'completed' is either paid or waived (SPEC section 4); the display tells them apart.
  const settlement = ticket.isSuccess ? settlementOf(ticket.data) : null;

  // Already paid (a reload after paying, a second tab, an old link): nothing to do here but confirm.
  useEffect(() => {
    if (settlement !== 'paid' || ticketId === null || handled.current) return;
    finish(ticketId, { replace: true });
  });

  const onPaid = (paymentIntentId: string) => {
    if (ticketId === null) return;
    toast({ title: 'Payment successful', description: 'Your payment was received. Recording it with your request...' });
    update.mutate(
      { ticketId, paymentIntentId },
      {
        onSuccess: (result) => finish(result.id),
        onError: (error) => toast({ title: 'Error', description: updatePaymentErrorMessage(error), variant: 'destructive' }),
      },
    );
  };

  const submitWaived = () => {
    if (ticketId === null) return;
    toast({ title: 'Processing zero-cost request', description: 'Fee waived, no payment required.' });
    finish(ticketId);
  };

  let body;
  if (ticketId === null || ticket.isError) {
    body = null;
  } else if (ticket.isPending || config.isPending) {
    body = <Spinner label="Loading your request" showLabel className="py-6" />;
  } else if (config.isError) {
    body = (
      <p role="alert" className="rounded-lg border border-red-300 bg-red-50 p-4 text-red-800">
        {paymentMessages.unavailable}
      </p>
    );
  } else if (settlement === 'paid') {
    body = <Spinner label="Loading your confirmation" showLabel className="py-6" />;
  } else {
    const settled = settlement === 'waived';
    body = (
      <div className="grid gap-6 lg:grid-cols-[2fr_3fr]">
        <div className="space-y-6">
          <Fee cents={settled ? 0 : config.data.diagnosticFeeCents} />
          <Summary ticket={ticket.data} data={data} />
        </div>
        <section aria-labelledby="pay-heading" className="rounded-xl border border-slate-200 p-5">
          <h2 id="pay-heading" className="mb-4 text-lg font-bold text-slate-900">
            {settled ? 'No payment required' : 'Card payment'}
          </h2>
          {settled ? (
            <div className="space-y-4">
              <p className="text-slate-700">The diagnostic fee for this request is covered: there is nothing to pay.</p>
              <button
                type="button"
                onClick={submitWaived}
                className="w-full rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800"
              >
                Submit Support Request
              </button>
            </div>
          ) : update.isPending ? (
            <Spinner label="Confirming your payment" showLabel className="py-6" />
          ) : (
            <CardPayment config={config.data} ticketId={ticketId} email={data?.email ?? ''} onSucceeded={onPaid} />
          )}
        </section>
      </div>
    );
  }

  return (
    <div className="space-y-6">
      {body}
      <button type="button" onClick={() => void navigate('/support-request')} className={backClass}>
        Back
      </button>
    </div>
  );
}

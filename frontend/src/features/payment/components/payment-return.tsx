import { CircleCheck, CircleX } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Spinner } from '../../../components/ui/spinner';
import { ApiRequestError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { getCurrentCustomer } from '../../../lib/current-customer';
import { getTicketSummary } from '../api/get-ticket-summary';
import { updateTicketPayment } from '../api/update-ticket-payment';
import { clearPendingTicket, pendingTicketId } from '../pending-ticket';

type ReturnState = { kind: 'processing' } | { kind: 'done'; ticketId: number } | { kind: 'failed'; message: string };

/** SPEC section 8. */
const TICKET_UNREADABLE = 'Could not retrieve ticket information.';
const GENERIC_FAILURE = 'There was a problem processing your request. Please try again or contact our support team for assistance.';

function ticketIdOf(raw: string | null): number | null {
  return raw !== null && /^[1-9][0-9]{0,9}$/.test(raw) ? Number(raw) : pendingTicketId();
}

/**
 * The payment return processing screen (SPEC section 2 and 4): where hosted checkout and a card's redirect
 * (3-D Secure) come back to, with payment_intent, ticket_id or zero_cost. The server verifies the payment with
 * the gateway; the screen only reports what it answered, then goes on to the dashboard or the confirmation.
 */
export function PaymentReturn() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [state, setState] = useState<ReturnState>({ kind: 'processing' });
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const ticketId = ticketIdOf(params.get('ticket_id'));
    const paymentIntentId = params.get('payment_intent');
    const zeroCost = params.get('zero_cost') === 'true';
    if (ticketId === null) {
      toast({
        title: 'No ticket information',
        description: "We couldn't find your ticket information. Please try submitting your request again.",
        variant: 'destructive',
      });
      void navigate('/support-request', { replace: true });
      return;
    }
    const run = async (): Promise<void> => {
      if (paymentIntentId || zeroCost) {
        await updateTicketPayment({ ticketId, ...(paymentIntentId ? { paymentIntentId } : {}), ...(zeroCost ? { isZeroCost: true } : {}) });
      } else {
        // With a ticket id only, nothing is updated: the ticket is read (SPEC section 4), and a failed read says so.
        const ticket = await getTicketSummary(ticketId).catch(() => {
          throw new Error(TICKET_UNREADABLE);
        });
        if (ticket.paymentStatus !== 'completed') throw new Error(GENERIC_FAILURE);
      }
      clearPendingTicket();
      setState({ kind: 'done', ticketId });
      const customer = await getCurrentCustomer().catch(() => null);
      void navigate(customer ? '/customer/dashboard' : `/confirmation/${ticketId}`, { replace: true });
    };
    run().catch((error: unknown) => {
      const message =
        error instanceof ApiRequestError
          ? `Failed to update payment: ${error.serverMessage ?? error.message}`
          : error instanceof Error
            ? error.message
            : 'There was an issue processing your request.';
      toast({ title: 'Process failed', description: message, variant: 'destructive' });
      setState({ kind: 'failed', message });
    });
  }, [params, navigate]);

  return (
    <div className="mx-auto max-w-xl rounded-xl border border-slate-200 p-8 text-center">
      <h1 className="text-3xl font-bold text-slate-900">Processing Your Request</h1>
      <div className="mt-6">
        {state.kind === 'processing' ? <Spinner label="Processing your payment" showLabel size="lg" /> : null}
        {state.kind === 'done' ? (
          <p role="status" className="flex items-center justify-center gap-2 text-green-800">
            <CircleCheck aria-hidden="true" className="h-6 w-6" />
            Payment received for ticket #{state.ticketId}.
          </p>
        ) : null}
        {state.kind === 'failed' ? (
          <div role="alert" className="space-y-4">
            <p className="flex items-center justify-center gap-2 text-red-800">
              <CircleX aria-hidden="true" className="h-6 w-6" />
              {state.message}
            </p>
            <button
              type="button"
              onClick={() => void navigate('/support-request')}
              className="rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800"
            >
              Return to Form
            </button>
          </div>
        ) : null}
      </div>
    </div>
  );
}

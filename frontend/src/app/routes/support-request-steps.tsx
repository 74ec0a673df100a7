import { formatUsd } from '@ppr/contracts';
import { LogIn, UserPlus } from 'lucide-react';
import { useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { buttonClasses } from '../../components/button-link';
import { Spinner } from '../../components/ui/spinner';
import { usePublicConfig } from '../../features/payment/api/get-public-config';
import { useTicketSummary } from '../../features/payment/api/get-ticket-summary';
import { savePendingTicket } from '../../features/payment/pending-ticket';
import { useCurrentCustomer } from '../../lib/current-customer';
import { StepIndicator } from '../../features/support-request/components/step-indicator';
import {
  EMPTY_REQUEST,
  SupportRequestForm,
  type CreatedRequest,
  SubmissionKeys,
  type SupportRequestValues,
} from '../../features/support-request/components/support-request-form';
import { jumpToTop } from '../../lib/scroll';
import { toast } from '../../lib/toast';

const STEPS = ['Account', 'Request', 'Payment', 'Confirmation'] as const;
const RETURN_TO = encodeURIComponent('/support-request-steps');

function AccountStep({ onSkip }: { onSkip: () => void }) {
  return (
    <section aria-labelledby="account-heading" className="space-y-4">
      <h2 id="account-heading" className="text-2xl font-bold text-slate-900">
        Your account
      </h2>
      <p className="text-slate-700">
        Log in or create an account to follow your tickets online, or continue as a guest: you can link your requests to an account later.
      </p>
      <div className="flex flex-wrap gap-3">
        <Link to={`/customer/login?returnTo=${RETURN_TO}`} className={buttonClasses('primary')}>
          <LogIn aria-hidden="true" className="h-5 w-5" />
          Log In
        </Link>
        <Link to={`/customer/register?returnTo=${RETURN_TO}`} className={buttonClasses('outline')}>
          <UserPlus aria-hidden="true" className="h-5 w-5" />
          Create Account
        </Link>
        <button type="button" onClick={onSkip} className="rounded-lg px-5 py-3 font-semibold text-brand-700 underline hover:bg-brand-50">
          Skip for now
        </button>
      </div>
    </section>
  );
}

function PaymentStep({ ticketId, onBack }: { ticketId: number; onBack: () => void }) {
  const navigate = useNavigate();
  const ticket = useTicketSummary(ticketId);
  const config = usePublicConfig();
  if (ticket.isPending || config.isPending) return <Spinner label="Loading your request" showLabel />;
  if (ticket.isError || config.isError) {
    return (
      <p role="alert" className="rounded-lg border border-red-300 bg-red-50 p-4 text-red-800">
        Could not retrieve ticket information.
      </p>
    );
  }
  const free = ticket.data.paymentStatus === 'completed';
  const proceed = () => {
    if (free) {
      toast({ title: 'Processing zero-cost request', description: 'Fee waived, no payment required.' });
      void navigate(`/confirmation/${ticketId}`);
    } else {
      toast({ title: 'Redirecting to payment' });
      void navigate(`/payment/${ticketId}`);
    }
  };
  return (
    <section aria-labelledby="payment-step-heading" className="space-y-4">
      <h2 id="payment-step-heading" className="text-2xl font-bold text-slate-900">
        Payment
      </h2>
      <div className="flex flex-wrap items-baseline justify-between gap-2 rounded-xl border border-slate-200 p-5">
        <div>
          <p className="text-sm font-semibold text-slate-700">Diagnostic fee</p>
          <p className="text-3xl font-bold text-slate-900" data-testid="fee">
            {formatUsd(free ? 0 : config.data.diagnosticFeeCents)}
          </p>
        </div>
        <Link to="/refund-policy" className="text-sm font-semibold text-brand-700 underline">
          Refund policy
        </Link>
      </div>
      <div className="flex flex-wrap gap-3">
        <button type="button" onClick={onBack} className={buttonClasses('outline')}>
          Back
        </button>
        <button type="button" onClick={proceed} className={buttonClasses('primary')}>
          {free ? 'Submit Support Request' : 'Proceed to Payment'}
        </button>
      </div>
    </section>
  );
}

/** /support-request-steps (SPEC section 2): account, request, payment summary, then the payment page or the confirmation. */
export default function SupportRequestStepsRoute() {
  const customer = useCurrentCustomer();
  const [step, setStep] = useState(0);
  const [values, setValues] = useState<SupportRequestValues>(EMPTY_REQUEST);
  const [ticketId, setTicketId] = useState<number | null>(null);
  // The submission's Idempotency-Key outlives the form: Back and the same request again is the same ticket.
  const [submissionKeys] = useState(() => new SubmissionKeys());
  const headingRef = useRef<HTMLHeadingElement>(null);

  // A logged-in customer has nothing to do on the account step.
  const current = step === 0 && customer.data ? 1 : step;

  // The next step replaces the one on screen: the page starts again at the top, and so does the screen reader.
  const go = (next: number) => {
    setStep(next);
    jumpToTop();
    headingRef.current?.focus({ preventScroll: true });
  };

  const onCreated = ({ id, request }: CreatedRequest, entered: SupportRequestValues) => {
    savePendingTicket(id, {
      businessName: request.businessName,
      contactName: request.contactName,
      serviceCategory: request.serviceCategory,
      email: request.email,
      ...(customer.data ? { userId: customer.data.id } : {}),
    });
    setValues(entered);
    setTicketId(id);
    go(2);
  };

  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <h1 ref={headingRef} tabIndex={-1} className="mb-6 text-3xl font-bold text-slate-900 outline-none">
        Request IT Support
      </h1>
      <StepIndicator steps={STEPS} current={current} />
      {current === 0 ? customer.isPending ? <Spinner label="Loading" /> : <AccountStep onSkip={() => go(1)} /> : null}
      {current === 1 ? <SupportRequestForm initialValues={values} onCreated={onCreated} submissionKeys={submissionKeys} /> : null}
      {current === 2 && ticketId !== null ? <PaymentStep ticketId={ticketId} onBack={() => go(1)} /> : null}
    </div>
  );
}

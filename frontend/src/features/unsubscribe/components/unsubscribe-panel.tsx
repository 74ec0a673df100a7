import { unsubscribeFormSchema } from '@ppr/contracts';
import { CircleCheck } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { SubmitButton } from '../../../components/ui/form';
import { paths } from '../../../config/paths';
import { useHydrated } from '../../../lib/use-hydrated';
import { unsubscribeErrorMessage, useUnsubscribe, type UnsubscribeInput } from '../api/unsubscribe';

/** Known values of the `error` query parameter set by links that already failed on the server. */
const ERROR_MESSAGES: Readonly<Record<string, string>> = {
  'invalid-token': 'This unsubscribe link is invalid or has expired.',
  invalid_token: 'This unsubscribe link is invalid or has expired.',
  'not-found': 'We could not find that email address in our mailing list.',
  not_found: 'We could not find that email address in our mailing list.',
};

function automaticInput(params: URLSearchParams): UnsubscribeInput | null {
  const token = params.get('token')?.trim();
  if (token) return { token };
  const email = params.get('email')?.trim();
  if (email) return { email };
  return null;
}

function ManualForm({
  initialError,
  onSubmit,
  pending,
}: {
  initialError: string | null;
  onSubmit: (email: string) => void;
  pending: boolean;
}) {
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = unsubscribeFormSchema.safeParse({ email });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? 'Please enter a valid email address');
      return;
    }
    setFieldError(null);
    onSubmit(parsed.data.email);
  };
  return (
    <form noValidate onSubmit={submit} className="mt-6 space-y-4" aria-label="Unsubscribe by email">
      {initialError ? (
        <p role="alert" className="rounded-lg border border-red-300 bg-red-50 p-4 text-red-800">
          {initialError}
        </p>
      ) : null}
      <p className="text-slate-700">Enter the email address you want to remove from our marketing emails.</p>
      <div>
        <label htmlFor="unsubscribe-email" className="block text-sm font-semibold text-slate-900">
          Email address
        </label>
        <input
          id="unsubscribe-email"
          name="email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={fieldError ? 'unsubscribe-email-error' : undefined}
          className="mt-1 block w-full rounded-lg border border-slate-400 px-3 py-2 text-slate-900"
        />
        {fieldError ? (
          <p id="unsubscribe-email-error" className="mt-1 text-sm text-red-700">
            {fieldError}
          </p>
        ) : null}
      </div>
      <SubmitButton pending={pending} pendingLabel="Unsubscribing...">
        Unsubscribe
      </SubmitButton>
    </form>
  );
}

/**
 * /unsubscribe: token mode and email mode unsubscribe at once; otherwise (or after a failure) the manual form.
 * The query string is read only after hydration, so the prerendered page and the first render agree.
 */
export function UnsubscribePanel() {
  const hydrated = useHydrated();
  const [params] = useSearchParams();
  const mutation = useUnsubscribe();
  const started = useRef(false);
  const [phase, setPhase] = useState<'init' | 'automatic' | 'manual'>('init');

  useEffect(() => {
    if (!hydrated || started.current) return;
    started.current = true;
    const input = automaticInput(params);
    if (!input) {
      // Deliberately after hydration: the prerendered HTML and the first client render both show the initial
      // state; only then does the page pick the automatic or the manual path (it depends on the query string).
      // eslint-disable-next-line react-hooks/set-state-in-effect
      setPhase('manual');
      return;
    }
    setPhase('automatic');
    // A failed automatic attempt falls back to the manual form, showing why.
    mutation.mutate(input, { onError: () => setPhase('manual') });
  }, [hydrated, params, mutation]);

  const queryError = hydrated ? params.get('error') : null;
  const initialError = mutation.isError
    ? unsubscribeErrorMessage(mutation.error)
    : queryError
      ? (ERROR_MESSAGES[queryError] ?? 'An unknown error occurred')
      : null;

  let body;
  if (mutation.isSuccess) {
    body = (
      <div role="status" className="mt-6 rounded-xl border border-green-700 bg-green-50 p-6">
        <CircleCheck aria-hidden="true" className="h-10 w-10 text-green-700" />
        <p className="mt-3 text-lg font-semibold text-slate-900">You have been unsubscribed.</p>
        <p className="mt-1 text-slate-700">
          {mutation.data
            ? `${mutation.data} will no longer receive marketing emails from us.`
            : 'You will no longer receive marketing emails from us.'}{' '}
          Emails about your own support tickets will still arrive.
        </p>
      </div>
    );
  } else if (phase === 'manual') {
    body = <ManualForm initialError={initialError} pending={mutation.isPending} onSubmit={(email) => mutation.mutate({ email })} />;
  } else {
    body = (
      <p role="status" className="mt-6 text-slate-700">
        {phase === 'automatic' ? 'Processing your unsubscribe request...' : 'Loading...'}
      </p>
    );
  }

  return (
    <div>
      {body}
      <p className="mt-8">
        <Link to={paths.home.getHref()} className="font-semibold text-brand-700 underline">
          Return to Homepage
        </Link>
      </p>
    </div>
  );
}

import { contactFormSchema, type ContactForm as ContactFormValues } from '@ppr/contracts';
import { CircleCheck } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { SubmitButton } from '../../../components/ui/form';
import { ApiRequestError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { sendContactMessage } from '../api/send-contact-message';

type FieldName = keyof ContactFormValues;
type FieldErrors = Partial<Record<FieldName, string>>;

const EMPTY: ContactFormValues = { name: '', email: '', phone: '', subject: '', message: '' };
const FIELD_ORDER: readonly FieldName[] = ['name', 'email', 'phone', 'subject', 'message'];

/** SPEC section 8, contact form. */
export const SEND_FAILED = 'There was a problem sending your message. Please try again.';

/** The server's field errors (a 400), for the fields this form has. */
function serverFieldErrors(error: unknown): FieldErrors {
  if (!(error instanceof ApiRequestError) || error.status !== 400) return {};
  const errors: FieldErrors = {};
  try {
    const body = JSON.parse(error.message.slice(error.message.indexOf(':') + 1)) as { errors?: { path: string; message: string }[] };
    for (const entry of body.errors ?? []) {
      if (FIELD_ORDER.includes(entry.path as FieldName)) errors[entry.path as FieldName] ??= entry.message;
    }
  } catch {
    // Not the API's JSON error body: nothing to put on the fields.
  }
  return errors;
}

/** The toast's text: the spec's sentence, with the server's reason when it gave one (a rate limit, say). */
function failureText(error: unknown): string {
  const reason = error instanceof ApiRequestError ? error.serverMessage : undefined;
  return reason && error instanceof ApiRequestError && error.status !== 400 && error.status < 500
    ? `${SEND_FAILED} ${reason}`
    : SEND_FAILED;
}

function validate(values: ContactFormValues): FieldErrors {
  const result = contactFormSchema.safeParse(values);
  if (result.success) return {};
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && FIELD_ORDER.includes(field as FieldName) && !errors[field as FieldName]) {
      errors[field as FieldName] = issue.message;
    }
  }
  return errors;
}

const inputClass =
  'mt-1 block w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900 aria-[invalid=true]:border-red-700';

/** SPEC section 9: the send shows "Sending..." for 1 second; a real request that answers sooner waits for it. */
export const MINIMUM_SEND_MS = 1000;

function delay(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

export function ContactForm({
  sendMessage = sendContactMessage,
  minimumSendMs = MINIMUM_SEND_MS,
}: {
  sendMessage?: (values: ContactFormValues) => Promise<unknown>;
  minimumSendMs?: number;
}) {
  const [values, setValues] = useState<ContactFormValues>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const [sending, setSending] = useState(false);
  const [received, setReceived] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const panelRef = useRef<HTMLHeadingElement>(null);

  // The prerendered page shows the form before this script runs: what a visitor typed by then is kept (on
  // screen it stays; the state starts empty, and a send would have said the fields were empty).
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const typed: Partial<ContactFormValues> = {};
    for (const name of FIELD_ORDER) {
      const element = form.elements.namedItem(name);
      if ((element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) && element.value !== '')
        typed[name] = element.value;
    }
    // Once, after hydration, from the one outside source of these values there is: the page as it was typed in.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (Object.keys(typed).length > 0) setValues((current) => ({ ...current, ...typed }));
  }, []);

  const update = (field: FieldName, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (submitted) setErrors(validate(next));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    const found = validate(values);
    setErrors(found);
    const firstInvalid = FIELD_ORDER.find((field) => found[field]);
    if (firstInvalid) {
      formRef.current?.querySelector<HTMLElement>(`[name="${firstInvalid}"]`)?.focus();
      return;
    }
    setSending(true);
    try {
      // What the schema made of the input (trimmed), as the server will read it.
      const parsed = contactFormSchema.safeParse(values);
      await Promise.all([sendMessage(parsed.success ? parsed.data : values), delay(minimumSendMs)]);
      toast({ title: 'Message sent', description: 'Thank you for contacting us. We will get back to you shortly.' });
      setReceived(true);
      setTimeout(() => panelRef.current?.focus(), 0);
    } catch (error) {
      const fromServer = serverFieldErrors(error);
      if (Object.keys(fromServer).length > 0) setErrors(fromServer);
      toast({ title: 'Error', description: failureText(error), variant: 'destructive' });
    } finally {
      setSending(false);
    }
  };

  if (received) {
    return (
      <div className="rounded-xl border border-green-700 bg-green-50 p-8 text-center">
        <CircleCheck aria-hidden="true" className="mx-auto h-12 w-12 text-green-700" />
        <h2 ref={panelRef} tabIndex={-1} className="mt-4 text-2xl font-bold text-slate-900 outline-none">
          Message Received
        </h2>
        <p className="mt-2 text-slate-700">
          Thanks for reaching out. A member of our team will reply by email or phone, usually within 1 hour during business hours.
        </p>
        <button
          type="button"
          onClick={() => {
            setValues(EMPTY);
            setErrors({});
            setSubmitted(false);
            setReceived(false);
            // The button goes away with the panel: focus goes to the new message's first field, not the page.
            setTimeout(() => document.getElementById('contact-name')?.focus(), 0);
          }}
          className="mt-6 rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800"
        >
          Send Another Message
        </button>
      </div>
    );
  }

  const field = (name: FieldName, label: string, type: 'text' | 'email' | 'tel', autoComplete: string) => (
    <div>
      <label htmlFor={`contact-${name}`} className="block text-sm font-semibold text-slate-900">
        {label}{' '}
        <span aria-hidden="true" className="text-red-700">
          *
        </span>
      </label>
      <input
        id={`contact-${name}`}
        name={name}
        type={type}
        autoComplete={autoComplete}
        required
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `contact-${name}-error` : undefined}
        value={values[name]}
        onChange={(event) => update(name, event.target.value)}
        className={inputClass}
      />
      {errors[name] ? (
        <p id={`contact-${name}-error`} className="mt-1 text-sm text-red-700">
          {errors[name]}
        </p>
      ) : null}
    </div>
  );

  return (
    <form ref={formRef} noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-5" aria-label="Contact form">
      <div className="grid gap-5 sm:grid-cols-2">
        {field('name', 'Name', 'text', 'name')}
        {field('email', 'Email', 'email', 'email')}
        {field('phone', 'Phone', 'tel', 'tel')}
        {field('subject', 'Subject', 'text', 'off')}
      </div>
      <div>
        <label htmlFor="contact-message" className="block text-sm font-semibold text-slate-900">
          Message{' '}
          <span aria-hidden="true" className="text-red-700">
            *
          </span>
        </label>
        <textarea
          id="contact-message"
          name="message"
          rows={6}
          required
          aria-invalid={errors.message ? true : undefined}
          aria-describedby={errors.message ? 'contact-message-error' : undefined}
          value={values.message}
          onChange={(event) => update('message', event.target.value)}
          className={inputClass}
        />
        {errors.message ? (
          <p id="contact-message-error" className="mt-1 text-sm text-red-700">
            {errors.message}
          </p>
        ) : null}
      </div>
      <SubmitButton pending={sending} pendingLabel="Sending...">
        Send Message
      </SubmitButton>
    </form>
  );
}

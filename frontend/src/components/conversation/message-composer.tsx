import { customerMessageSchema, MESSAGE_BODY_MAX_LENGTH, messageTexts, staffMessageSchema, type MessageVisibility } from '@ppr/contracts';
import { X } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { ApiRequestError } from '../../lib/api-client';
import { Field, Input, SubmitButton, Textarea } from '../ui/form';
import { ATTACHMENT_ACCEPT, ATTACHMENT_HINT, attachmentProblem, formatBytes } from './attachment-rules';

/** What the composer sends: the trimmed text, the chosen files, and (staff only) who may read it. */
export interface ComposerInput {
  readonly body: string;
  readonly files: readonly File[];
  readonly visibility: MessageVisibility;
  /**
   * The message's Idempotency-Key: the same while the same message is sent again (after an error or a lost
   * answer, the server keeps one message), a new one for the next message.
   */
  readonly idempotencyKey: string;
}

type ComposerField = 'body' | 'attachments';
type ComposerErrors = Partial<Record<ComposerField, string>>;

export interface MessageComposerProps {
  /** Prefix of the controls' ids (unique on the page). */
  id: string;
  /** The form's accessible name. */
  label: string;
  /** Staff choose between a public reply and an internal note; customers only write public messages. */
  withVisibility?: boolean;
  /** Sends the message; rejects with the API's error. */
  onSend: (input: ComposerInput) => Promise<unknown>;
  /** A failure handled elsewhere (an expired admin session): answers true, and the composer shows nothing. */
  onHandledError?: (error: unknown) => boolean;
}

const count = (value: number) => value.toLocaleString('en-US');

function waitText(seconds: number | undefined): string {
  if (seconds === undefined || seconds <= 0) return 'a few minutes';
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** The text of a 429: how long to wait, from its Retry-After. */
export function tooManyMessagesText(retryAfterSeconds: number | undefined): string {
  return `You have sent a lot of messages in a short time. Please wait ${waitText(retryAfterSeconds)} and try again.`;
}

export const SEND_FAILED = 'Your message could not be sent. Please try again.';

/** The server's refusal: what goes on the fields (a 400's `errors`, a 413), and what goes above them. */
function refusal(error: unknown): { errors: ComposerErrors; failure: string | null } {
  if (!(error instanceof ApiRequestError)) return { errors: {}, failure: SEND_FAILED };
  if (error.status === 429) return { errors: {}, failure: tooManyMessagesText(error.retryAfterSeconds) };
  const errors: ComposerErrors = {};
  for (const entry of error.fieldErrors) {
    const field = entry.path.split('.')[0];
    if (field === 'body' || field === 'attachments') errors[field] ??= entry.message;
  }
  if (Object.keys(errors).length > 0) return { errors, failure: null };
  // A 413 without the API's body: a proxy in front refused the size.
  if (error.status === 413) return { errors: { attachments: messageTexts.attachmentsTooLarge }, failure: null };
  return { errors: {}, failure: error.serverMessage ?? SEND_FAILED };
}

/**
 * Writes a message on a ticket: a labelled text box with its character count, files checked against the
 * server's limits (in its words) before they are sent, and the server's field errors shown by their field.
 * An invalid field takes the focus; after a send the text box does, empty, ready for the next message.
 */
export function MessageComposer({ id, label, withVisibility = false, onSend, onHandledError }: MessageComposerProps) {
  const [body, setBody] = useState('');
  const [files, setFiles] = useState<readonly File[]>([]);
  const [visibility, setVisibility] = useState<MessageVisibility>('public');
  const [errors, setErrors] = useState<ComposerErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [sent, setSent] = useState('');
  const [pending, setPending] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  const filesRef = useRef<HTMLInputElement>(null);
  const draftKey = useRef<{ key: string; fingerprint: string } | null>(null);

  const keyFor = (fingerprint: string): string => {
    if (draftKey.current?.fingerprint !== fingerprint) draftKey.current = { key: crypto.randomUUID(), fingerprint };
    return draftKey.current.key;
  };

  const bodyProblem = (text: string): string | undefined => {
    const parsed = withVisibility
      ? staffMessageSchema.safeParse({ body: text, visibility })
      : customerMessageSchema.safeParse({ body: text });
    return parsed.success ? undefined : parsed.error.issues.find((issue) => issue.path[0] === 'body')?.message;
  };

  const changeBody = (text: string) => {
    setBody(text);
    setSent('');
    if (submitted || errors.body) setErrors((current) => ({ ...current, body: bodyProblem(text) }));
  };

  const changeFiles = (next: readonly File[]) => {
    setFiles(next);
    setSent('');
    setErrors((current) => ({ ...current, attachments: attachmentProblem(next) }));
  };

  const focus = (field: ComposerField) => (field === 'body' ? bodyRef.current : filesRef.current)?.focus();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    setSubmitted(true);
    setFailure(null);
    setSent('');
    const found: ComposerErrors = { body: bodyProblem(body), attachments: attachmentProblem(files) };
    setErrors(found);
    if (found.body || found.attachments) {
      focus(found.body ? 'body' : 'attachments');
      return;
    }
    setPending(true);
    const text = body.trim();
    const fingerprint = JSON.stringify([text, visibility, files.map((file) => [file.name, file.size, file.lastModified])]);
    try {
      await onSend({ body: text, files, visibility, idempotencyKey: keyFor(fingerprint) });
      draftKey.current = null;
      setBody('');
      setFiles([]);
      setErrors({});
      setSubmitted(false);
      setSent(visibility === 'internal' ? 'Internal note added.' : withVisibility ? 'Reply sent.' : 'Message sent.');
      bodyRef.current?.focus();
    } catch (error) {
      if (onHandledError?.(error)) return;
      const refused = refusal(error);
      setErrors(refused.errors);
      setFailure(refused.failure);
      if (refused.errors.body || refused.errors.attachments) focus(refused.errors.body ? 'body' : 'attachments');
    } finally {
      setPending(false);
    }
  };

  const length = body.length;
  const over = length > MESSAGE_BODY_MAX_LENGTH;
  const radio = (value: MessageVisibility, text: string, hint: string) => (
    <div className="flex items-start gap-2">
      <input
        type="radio"
        id={`${id}-visibility-${value}`}
        name={`${id}-visibility`}
        value={value}
        checked={visibility === value}
        onChange={() => setVisibility(value)}
        aria-describedby={`${id}-visibility-${value}-hint`}
        className="mt-1 h-4 w-4 accent-brand-700"
      />
      <div>
        <label htmlFor={`${id}-visibility-${value}`} className="font-semibold text-slate-900">
          {text}
        </label>
        <p id={`${id}-visibility-${value}-hint`} className="text-sm text-slate-700">
          {hint}
        </p>
      </div>
    </div>
  );

  return (
    <form aria-label={label} noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-4">
      {failure ? (
        <p role="alert" className="rounded-lg border border-red-700 bg-red-50 px-4 py-3 text-sm text-red-800">
          {failure}
        </p>
      ) : null}
      {withVisibility ? (
        <fieldset>
          <legend className="text-sm font-semibold text-slate-900">Message type</legend>
          <div className="mt-2 flex flex-wrap gap-x-8 gap-y-3">
            {radio('public', 'Public reply', 'The customer sees it.')}
            {radio('internal', 'Internal note', 'Only staff see it.')}
          </div>
        </fieldset>
      ) : null}
      <Field
        label="Message"
        id={`${id}-body`}
        error={errors.body}
        hint={
          <span className={over ? 'font-semibold text-red-700' : undefined}>
            {count(length)} / {count(MESSAGE_BODY_MAX_LENGTH)} characters
            {over ? ` (${count(length - MESSAGE_BODY_MAX_LENGTH)} over the limit)` : null}
          </span>
        }
      >
        <Textarea
          ref={bodyRef}
          name="body"
          rows={5}
          value={body}
          onChange={(event) => changeBody(event.target.value)}
          className={visibility === 'internal' ? 'border-dashed bg-amber-50' : undefined}
        />
      </Field>
      <Field label="Attach files" id={`${id}-attachments`} error={errors.attachments} hint={ATTACHMENT_HINT}>
        <Input
          ref={filesRef}
          type="file"
          name="attachments"
          multiple
          accept={ATTACHMENT_ACCEPT}
          onChange={(event) => {
            const chosen = Array.from(event.target.files ?? []);
            // Emptied, so that the same file can be chosen again after it was removed.
            event.target.value = '';
            if (chosen.length > 0) changeFiles([...files, ...chosen]);
          }}
          className="text-sm file:mr-3 file:rounded-md file:border file:border-slate-400 file:bg-slate-50 file:px-3 file:py-1 file:font-semibold file:text-slate-900"
        />
      </Field>
      {files.length > 0 ? (
        <ul aria-label="Files to send" className="flex flex-col gap-1.5 text-sm">
          {files.map((file, index) => (
            <li
              key={`${index}-${file.name}`}
              className="flex items-center justify-between gap-3 rounded-md border border-slate-300 px-3 py-1.5"
            >
              <span className="min-w-0 [overflow-wrap:anywhere]">
                {file.name} <span className="text-slate-700">({formatBytes(file.size)})</span>
              </span>
              <button
                type="button"
                aria-label={`Remove ${file.name}`}
                onClick={() => {
                  changeFiles(files.filter((_, other) => other !== index));
                  filesRef.current?.focus();
                }}
                className="inline-flex shrink-0 items-center gap-1 rounded-md px-2 py-1 font-semibold text-slate-800 hover:bg-slate-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-700"
              >
                <X aria-hidden="true" className="h-4 w-4" />
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="flex flex-wrap items-center gap-4">
        <SubmitButton pending={pending} pendingLabel="Sending...">
          {!withVisibility ? 'Send' : visibility === 'internal' ? 'Add Internal Note' : 'Send Reply'}
        </SubmitButton>
        <p role="status" className="text-sm font-semibold text-green-800">
          {sent}
        </p>
      </div>
    </form>
  );
}

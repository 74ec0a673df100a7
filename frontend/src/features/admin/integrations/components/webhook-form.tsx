import { createWebhookSchema, type IntegrationEventType } from '@ppr/contracts';
import { useId, useState, type FormEvent } from 'react';
import { Field, Input } from '../../../../components/ui/form';
import { adminButton } from '../../components/styles';
import { fieldErrors } from '../../lib/form-errors';
import { ALL_EVENT_TYPES, EVENT_TYPE_LABELS } from '../lib/labels';

export interface WebhookFormValues {
  url: string;
  description: string;
  eventTypes: IntegrationEventType[];
  includePersonalData: boolean;
}

export const EMPTY_WEBHOOK: WebhookFormValues = { url: '', description: '', eventTypes: [...ALL_EVENT_TYPES], includePersonalData: false };

type FieldName = 'url' | 'description' | 'eventTypes';

/**
 * The webhook endpoint's settings, for registering one and for editing it. Checked with the contracts schema
 * before sending; a URL the server refuses (a private address, a name that does not resolve) comes back as
 * `serverError` on the URL field.
 */
export function WebhookForm({
  initial,
  submitLabel,
  pendingLabel,
  pending,
  serverUrlError,
  onSubmit,
  idPrefix,
  label,
}: {
  initial: WebhookFormValues;
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  serverUrlError?: string | undefined;
  onSubmit: (values: WebhookFormValues) => void;
  idPrefix: string;
  label: string;
}) {
  const [values, setValues] = useState<WebhookFormValues>(initial);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const legendId = useId();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = createWebhookSchema.safeParse({
      url: values.url,
      eventTypes: values.eventTypes,
      includePersonalData: values.includePersonalData,
      ...(values.description.trim() ? { description: values.description } : {}),
    });
    const found: Partial<Record<FieldName, string>> = parsed.success ? {} : fieldErrors<FieldName>(parsed.error);
    if (!found.url && !/^https?:\/\/\S+$/i.test(values.url.trim())) found.url = 'Enter an http or https URL';
    if (Object.keys(found).length > 0) {
      setErrors(found);
      const first = (['url', 'description', 'eventTypes'] as const).find((field) => found[field]);
      if (first) document.getElementById(`${idPrefix}-${first}`)?.focus();
      return;
    }
    setErrors({});
    onSubmit({ ...values, url: values.url.trim(), description: values.description.trim() });
  };

  const toggle = (type: IntegrationEventType, on: boolean) =>
    setValues((current) => ({
      ...current,
      eventTypes: on
        ? ALL_EVENT_TYPES.filter((t) => t === type || current.eventTypes.includes(t))
        : current.eventTypes.filter((t) => t !== type),
    }));

  const urlError = errors.url ?? serverUrlError;
  const typesErrorId = `${idPrefix}-eventTypes-error`;
  return (
    <form noValidate onSubmit={submit} aria-label={label} className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Endpoint URL" id={`${idPrefix}-url`} error={urlError} hint="https://… where the events are POSTed" required>
          <Input
            name="url"
            type="url"
            inputMode="url"
            value={values.url}
            onChange={(event) => setValues({ ...values, url: event.target.value })}
          />
        </Field>
        <Field label="Description" id={`${idPrefix}-description`} error={errors.description}>
          <Input
            name="description"
            maxLength={200}
            value={values.description}
            onChange={(event) => setValues({ ...values, description: event.target.value })}
          />
        </Field>
      </div>
      <fieldset aria-describedby={errors.eventTypes ? typesErrorId : undefined}>
        <legend id={legendId} className="text-sm font-semibold text-slate-900">
          Event types
        </legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-2 lg:grid-cols-4">
          {ALL_EVENT_TYPES.map((type, index) => (
            <label key={type} className="inline-flex items-center gap-2 text-sm text-slate-900">
              <input
                type="checkbox"
                id={index === 0 ? `${idPrefix}-eventTypes` : undefined}
                checked={values.eventTypes.includes(type)}
                onChange={(event) => toggle(type, event.target.checked)}
                className="h-4 w-4"
              />
              {EVENT_TYPE_LABELS[type]}
            </label>
          ))}
        </div>
        {errors.eventTypes ? (
          <p id={typesErrorId} className="mt-1 text-sm text-red-700">
            {errors.eventTypes}
          </p>
        ) : null}
      </fieldset>
      <label className="inline-flex items-center gap-2 text-sm text-slate-900">
        <input
          type="checkbox"
          checked={values.includePersonalData}
          onChange={(event) => setValues({ ...values, includePersonalData: event.target.checked })}
          className="h-4 w-4"
        />
        Include personal data (names, email addresses, phones, notes)
      </label>
      <div>
        <button type="submit" disabled={pending} className={adminButton.primary}>
          {pending ? pendingLabel : submitLabel}
        </button>
      </div>
    </form>
  );
}

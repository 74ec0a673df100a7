import { SERVICE_CATEGORIES, supportRequestSchema, type SupportRequest } from '@ppr/contracts';
import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Field, Input, Select, SubmitButton, Textarea } from '../../../components/ui/form';
import { toast } from '../../../lib/toast';
import { createTicketErrorMessage, useCreateSupportRequest } from '../api/create-support-request';

export interface SupportRequestValues {
  businessName: string;
  contactName: string;
  email: string;
  phone: string;
  address: string;
  serviceCategory: string;
  issueDescription: string;
}

type FieldName = keyof SupportRequestValues;
export type SupportRequestErrors = Partial<Record<FieldName, string>>;

export const EMPTY_REQUEST: SupportRequestValues = {
  businessName: '',
  contactName: '',
  email: '',
  phone: '',
  address: '',
  serviceCategory: '',
  issueDescription: '',
};

const FIELD_ORDER: readonly FieldName[] = [
  'businessName',
  'contactName',
  'email',
  'phone',
  'address',
  'serviceCategory',
  'issueDescription',
];

/** The form's values as the API body: the shared schema (SPEC section 5) with its messages, or the first message per field. */
export function validateSupportRequest(values: SupportRequestValues): { body: SupportRequest } | { errors: SupportRequestErrors } {
  const result = supportRequestSchema.safeParse({ ...values, address: values.address.trim() === '' ? null : values.address });
  if (result.success) return { body: result.data };
  const errors: SupportRequestErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && (FIELD_ORDER as readonly string[]).includes(field) && !errors[field as FieldName]) {
      errors[field as FieldName] = issue.message;
    }
  }
  return { errors };
}

export interface CreatedRequest {
  readonly id: number;
  readonly request: SupportRequest;
}

const CATEGORY_OPTIONS = SERVICE_CATEGORIES.map((category) => ({ value: category.id, label: category.name }));

/**
 * The support request form (SPEC section 2). Submitting creates the ticket; `onCreated` decides where the
 * visitor goes next (payment, or the confirmation when the fee is waived).
 */
/**
 * One Idempotency-Key per submission: kept while the values stay the same (a retry after an error or a lost
 * answer gets the same ticket), replaced when they change (a new submission).
 */
export class SubmissionKeys {
  private current: { key: string; fingerprint: string } | null = null;

  keyFor(body: SupportRequest): string {
    const fingerprint = JSON.stringify(body);
    if (this.current?.fingerprint !== fingerprint) this.current = { key: crypto.randomUUID(), fingerprint };
    return this.current.key;
  }
}

export function SupportRequestForm({
  initialValues = EMPTY_REQUEST,
  onCreated,
  submissionKeys,
}: {
  initialValues?: SupportRequestValues;
  onCreated: (created: CreatedRequest, values: SupportRequestValues) => void;
  /** Where the submission's key is kept, when it must outlive the form (a steps page that unmounts it). */
  submissionKeys?: SubmissionKeys;
}) {
  const [values, setValues] = useState<SupportRequestValues>(initialValues);
  const [errors, setErrors] = useState<SupportRequestErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const [ownKeys] = useState(() => new SubmissionKeys());
  const keys = submissionKeys ?? ownKeys;
  const create = useCreateSupportRequest();
  const processing = create.isPending;

  const update = (field: FieldName, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (submitted) {
      const result = validateSupportRequest(next);
      setErrors('errors' in result ? result.errors : {});
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (processing) return;
    setSubmitted(true);
    const result = validateSupportRequest(values);
    if ('errors' in result) {
      setErrors(result.errors);
      const first = FIELD_ORDER.find((field) => result.errors[field]);
      if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    setErrors({});
    create.mutate(
      { body: result.body, idempotencyKey: keys.keyFor(result.body) },
      {
        onSuccess: (ticket) => onCreated({ id: ticket.id, request: result.body }, values),
        onError: (error) => {
          toast({ title: 'Error processing request', description: createTicketErrorMessage(error), variant: 'destructive' });
        },
      },
    );
  };

  const text = (name: FieldName, label: string, type: 'text' | 'email' | 'tel', autoComplete: string, required = true) => (
    <Field label={label} error={errors[name]} required={required} id={`request-${name}`}>
      <Input
        name={name}
        type={type}
        autoComplete={autoComplete}
        value={values[name]}
        onChange={(event) => update(name, event.target.value)}
        disabled={processing}
      />
    </Field>
  );

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} aria-label="Support request" className="space-y-5">
      <div className="grid gap-5 sm:grid-cols-2">
        {text('businessName', 'Business Name', 'text', 'organization')}
        {text('contactName', 'Contact Name', 'text', 'name')}
        {text('email', 'Email', 'email', 'email')}
        {text('phone', 'Phone', 'tel', 'tel')}
      </div>
      <Field label="Address (optional, for onsite support)" error={errors.address} id="request-address">
        <Input
          name="address"
          type="text"
          autoComplete="street-address"
          value={values.address}
          onChange={(event) => update('address', event.target.value)}
          disabled={processing}
        />
      </Field>
      <Field label="Service Category" error={errors.serviceCategory} required id="request-serviceCategory">
        <Select
          name="serviceCategory"
          value={values.serviceCategory}
          onChange={(event) => update('serviceCategory', event.target.value)}
          placeholder="Select a service category"
          options={CATEGORY_OPTIONS}
          disabled={processing}
        />
      </Field>
      <Field label="Issue Description" error={errors.issueDescription} required id="request-issueDescription">
        <Textarea
          name="issueDescription"
          rows={6}
          value={values.issueDescription}
          onChange={(event) => update('issueDescription', event.target.value)}
          disabled={processing}
        />
      </Field>
      <div className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-slate-800">
        <p>
          <strong>Diagnostic fee: $49.00.</strong> Collected upfront and credited toward your final bill once the issue is resolved. A
          Systems Engineer contacts you immediately or within 1 hour. See our{' '}
          <Link to="/refund-policy" className="font-semibold text-brand-700 underline">
            refund policy
          </Link>
          .
        </p>
      </div>
      <SubmitButton pending={processing} pendingLabel="Processing..." className="w-full sm:w-auto">
        Proceed to Payment
      </SubmitButton>
    </form>
  );
}

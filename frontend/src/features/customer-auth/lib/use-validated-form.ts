import { useRef, useState, type FormEvent, type RefObject } from 'react';
import type { z } from 'zod';
import { toast } from '../../../lib/toast';
import { fieldErrors, firstInvalid, serverMessage, type FieldErrors } from './form-errors';

export interface ValidatedForm<K extends string> {
  values: Record<K, string>;
  errors: FieldErrors<K>;
  /** The server's refusal shown above the fields; cleared on each submit. */
  failure: string | null;
  /** Shows a refused request: the server's sentence (else `fallback`) above the fields and in a toast. */
  fail: (error: unknown, title: string, fallback: string) => void;
  formRef: RefObject<HTMLFormElement | null>;
  /** Sets one field; after the first submit the errors follow the values as they are typed. */
  update: (field: K, value: string) => void;
  /** Handles a submit event: true when the values pass, else shows the errors and focuses the first invalid field. */
  submit: (event: FormEvent<HTMLFormElement>) => boolean;
}

/**
 * The state of the customer account forms: values checked against the contract schema (SPEC section 5) on
 * submit and, from then on, as they change. `extra` is merged into what the schema checks (e.g. a token).
 */
export function useValidatedForm<K extends string>(
  schema: z.ZodType,
  fields: readonly K[],
  initial: Record<K, string>,
  extra: Readonly<Record<string, unknown>> = {},
): ValidatedForm<K> {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors<K>>({});
  const [submitted, setSubmitted] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  const validate = (next: Record<K, string>) => fieldErrors(schema, { ...extra, ...next }, fields);

  const update = (field: K, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (submitted) setErrors(validate(next));
  };

  const fail = (error: unknown, title: string, fallback: string) => {
    const message = serverMessage(error, fallback);
    setFailure(message);
    toast({ title, description: message, variant: 'destructive' });
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    setFailure(null);
    const found = validate(values);
    setErrors(found);
    const invalid = firstInvalid(found, fields);
    if (invalid) {
      formRef.current?.querySelector<HTMLElement>(`[name="${invalid}"]`)?.focus();
      return false;
    }
    return true;
  };

  return { values, errors, failure, fail, formRef, update, submit };
}

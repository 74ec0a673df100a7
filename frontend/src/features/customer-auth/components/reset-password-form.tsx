import { resetPasswordFormSchema } from '@ppr/contracts';
import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Field, PasswordInput } from '../../../components/ui/form';
import { paths } from '../../../config/paths';
import { toast } from '../../../lib/toast';
import { useResetPassword } from '../api/reset-password';
import { fieldErrors, firstInvalid, serverMessage, type FieldErrors } from '../lib/form-errors';

type ResetField = 'password' | 'confirmPassword';
const FIELDS: readonly ResetField[] = ['password', 'confirmPassword'];

const linkClass = 'font-semibold text-brand-700 underline hover:text-brand-800';

/** The screen the password-reset email links to: /customer/reset-password?token=... */
export function ResetPasswordForm({ token }: { token: string | null }) {
  const [values, setValues] = useState<Record<ResetField, string>>({ password: '', confirmPassword: '' });
  const [errors, setErrors] = useState<FieldErrors<ResetField>>({});
  const [submitted, setSubmitted] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const reset = useResetPassword();

  if (!token) {
    return (
      <div role="alert" className="rounded-lg border border-red-700 bg-red-50 px-4 py-3 text-red-800">
        <p>This password reset link is missing its token. Please ask for a new one.</p>
        <Link to={paths.customerForgotPassword.getHref()} className={`mt-2 inline-block ${linkClass}`}>
          Ask for a new link
        </Link>
      </div>
    );
  }

  if (done) {
    return (
      <div role="status" className="rounded-lg border border-green-700 bg-green-50 px-4 py-3 text-green-800">
        <p>{done}</p>
        <Link to={paths.customerLogin.getHref()} className={`mt-2 inline-block ${linkClass}`}>
          Go to Login
        </Link>
      </div>
    );
  }

  const validate = (next: Record<ResetField, string>) => fieldErrors(resetPasswordFormSchema, { token, ...next }, FIELDS);

  const update = (field: ResetField, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (submitted) setErrors(validate(next));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    setFailure(null);
    const found = validate(values);
    setErrors(found);
    const invalid = firstInvalid(found, FIELDS);
    if (invalid) {
      formRef.current?.querySelector<HTMLElement>(`[name="${invalid}"]`)?.focus();
      return;
    }
    reset.mutate(
      { token, password: values.password },
      {
        onSuccess: ({ message }) => {
          toast({ title: 'Password changed', description: message });
          setDone(message);
        },
        onError: (error) => {
          const message = serverMessage(error, 'Could not change the password. Please try again.');
          setFailure(message);
          toast({ title: 'Error', description: message, variant: 'destructive' });
        },
      },
    );
  };

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} className="space-y-5" aria-label="Choose a new password">
      {failure ? (
        <div role="alert" className="rounded-lg border border-red-700 bg-red-50 px-4 py-3 text-sm text-red-800">
          <p>{failure}</p>
          <Link to={paths.customerForgotPassword.getHref()} className={`mt-1 inline-block ${linkClass}`}>
            Ask for a new link
          </Link>
        </div>
      ) : null}
      <Field label="New password" error={errors.password} hint="At least 6 characters" required>
        <PasswordInput
          name="password"
          autoComplete="new-password"
          value={values.password}
          onChange={(event) => update('password', event.target.value)}
        />
      </Field>
      <Field label="Confirm new password" error={errors.confirmPassword} required>
        <PasswordInput
          name="confirmPassword"
          autoComplete="new-password"
          value={values.confirmPassword}
          onChange={(event) => update('confirmPassword', event.target.value)}
        />
      </Field>
      <button
        type="submit"
        disabled={reset.isPending}
        className="rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-70"
      >
        {reset.isPending ? 'Saving...' : 'Change Password'}
      </button>
    </form>
  );
}

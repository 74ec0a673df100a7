import { resetPasswordFormSchema } from '@ppr/contracts';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { SubmitButton } from '../../../components/ui/form';
import { paths } from '../../../config/paths';
import { toast } from '../../../lib/toast';
import { useResetPassword } from '../api/reset-password';
import { useValidatedForm } from '../lib/use-validated-form';
import { PasswordFields } from './password-fields';

type ResetField = 'password' | 'confirmPassword';
const FIELDS: readonly ResetField[] = ['password', 'confirmPassword'];

const linkClass = 'font-semibold text-brand-700 underline hover:text-brand-800';

/** The screen the password-reset email links to: /customer/reset-password?token=... */
export function ResetPasswordForm({ token }: { token: string | null }) {
  const { values, errors, failure, fail, formRef, update, submit } = useValidatedForm(
    resetPasswordFormSchema,
    FIELDS,
    { password: '', confirmPassword: '' },
    { token },
  );
  const [done, setDone] = useState<string | null>(null);
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

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (!submit(event)) return;
    reset.mutate(
      { token, password: values.password },
      {
        onSuccess: ({ message }) => {
          toast({ title: 'Password changed', description: message });
          setDone(message);
        },
        onError: (error) => fail(error, 'Error', 'Could not change the password. Please try again.'),
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
      <PasswordFields
        labels={{ password: 'New password', confirmPassword: 'Confirm new password' }}
        values={values}
        errors={errors}
        onChange={update}
      />
      <SubmitButton pending={reset.isPending} pendingLabel="Saving...">
        Change Password
      </SubmitButton>
    </form>
  );
}

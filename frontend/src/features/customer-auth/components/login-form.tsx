import { customerLoginSchema, type CurrentCustomer } from '@ppr/contracts';
import type { FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Field, Input, PasswordInput, SubmitButton } from '../../../components/ui/form';
import { paths } from '../../../config/paths';
import { toast } from '../../../lib/toast';
import { useLogin } from '../api/login';
import { useValidatedForm } from '../lib/use-validated-form';

type LoginField = 'email' | 'password';
const FIELDS: readonly LoginField[] = ['email', 'password'];

export interface LoginFormProps {
  /** Prefills the identifier, e.g. with the username just registered. */
  initialIdentifier?: string;
  onLoggedIn: (customer: CurrentCustomer) => void;
}

export function LoginForm({ initialIdentifier = '', onLoggedIn }: LoginFormProps) {
  const { values, errors, failure, fail, formRef, update, submit } = useValidatedForm(customerLoginSchema, FIELDS, {
    email: initialIdentifier,
    password: '',
  });
  const loginMutation = useLogin();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (!submit(event)) return;
    loginMutation.mutate(
      { email: values.email.trim(), password: values.password },
      {
        onSuccess: (customer) => {
          toast({ title: 'Login successful', description: `Welcome back, ${customer.username}!` });
          onLoggedIn(customer);
        },
        onError: (error) => fail(error, 'Login failed', 'Login failed'),
      },
    );
  };

  const busy = loginMutation.isPending || loginMutation.isSuccess;

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} className="space-y-5" aria-label="Log in">
      {failure ? (
        <p role="alert" className="rounded-lg border border-red-700 bg-red-50 px-4 py-3 text-sm text-red-800">
          {failure}
        </p>
      ) : null}
      <Field label="Email or username" error={errors.email} required>
        <Input
          name="email"
          type="text"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={values.email}
          onChange={(event) => update('email', event.target.value)}
        />
      </Field>
      <Field label="Password" error={errors.password} required>
        <PasswordInput
          name="password"
          autoComplete="current-password"
          value={values.password}
          onChange={(event) => update('password', event.target.value)}
        />
      </Field>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <SubmitButton pending={busy} pendingLabel="Logging in...">
          Log In
        </SubmitButton>
        <Link to={paths.customerForgotPassword.getHref()} className="text-sm font-semibold text-brand-700 underline hover:text-brand-800">
          Forgot your password?
        </Link>
      </div>
    </form>
  );
}

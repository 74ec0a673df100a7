import { customerLoginSchema, type CurrentCustomer } from '@ppr/contracts';
import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Field, Input, PasswordInput } from '../../../components/ui/form';
import { paths } from '../../../config/paths';
import { toast } from '../../../lib/toast';
import { useLogin } from '../api/login';
import { fieldErrors, firstInvalid, serverMessage, type FieldErrors } from '../lib/form-errors';

type LoginField = 'email' | 'password';
const FIELDS: readonly LoginField[] = ['email', 'password'];

export interface LoginFormProps {
  /** Prefills the identifier, e.g. with the username just registered. */
  initialIdentifier?: string;
  onLoggedIn: (customer: CurrentCustomer) => void;
}

export function LoginForm({ initialIdentifier = '', onLoggedIn }: LoginFormProps) {
  const [values, setValues] = useState<Record<LoginField, string>>({ email: initialIdentifier, password: '' });
  const [errors, setErrors] = useState<FieldErrors<LoginField>>({});
  const [submitted, setSubmitted] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const loginMutation = useLogin();

  const update = (field: LoginField, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (submitted) setErrors(fieldErrors(customerLoginSchema, next, FIELDS));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    setFailure(null);
    const found = fieldErrors(customerLoginSchema, values, FIELDS);
    setErrors(found);
    const invalid = firstInvalid(found, FIELDS);
    if (invalid) {
      formRef.current?.querySelector<HTMLElement>(`[name="${invalid}"]`)?.focus();
      return;
    }
    loginMutation.mutate(
      { email: values.email.trim(), password: values.password },
      {
        onSuccess: (customer) => {
          toast({ title: 'Login successful', description: `Welcome back, ${customer.username}!` });
          onLoggedIn(customer);
        },
        onError: (error) => {
          const message = serverMessage(error, 'Login failed');
          setFailure(message);
          toast({ title: 'Login failed', description: message, variant: 'destructive' });
        },
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
        <button
          type="submit"
          disabled={busy}
          className="rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-70"
        >
          {busy ? 'Logging in...' : 'Log In'}
        </button>
        <Link to={paths.customerForgotPassword.getHref()} className="text-sm font-semibold text-brand-700 underline hover:text-brand-800">
          Forgot your password?
        </Link>
      </div>
    </form>
  );
}

import { registerFormSchema } from '@ppr/contracts';
import { useRef, useState, type FormEvent } from 'react';
import { Field, Input, PasswordInput } from '../../../components/ui/form';
import { toast } from '../../../lib/toast';
import { useRegister } from '../api/register';
import { fieldErrors, firstInvalid, serverMessage, type FieldErrors } from '../lib/form-errors';

type RegisterField = 'username' | 'email' | 'password' | 'confirmPassword' | 'businessName' | 'phone';
const FIELDS: readonly RegisterField[] = ['username', 'email', 'password', 'confirmPassword', 'businessName', 'phone'];
const EMPTY: Record<RegisterField, string> = { username: '', email: '', password: '', confirmPassword: '', businessName: '', phone: '' };

export interface RegisterFormProps {
  /** Called with the username and the server's "check your email" sentence. */
  onRegistered: (username: string, message: string) => void;
}

export function RegisterForm({ onRegistered }: RegisterFormProps) {
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors<RegisterField>>({});
  const [submitted, setSubmitted] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const registerMutation = useRegister();

  const update = (field: RegisterField, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (submitted) setErrors(fieldErrors(registerFormSchema, next, FIELDS));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    setFailure(null);
    const found = fieldErrors(registerFormSchema, values, FIELDS);
    setErrors(found);
    const invalid = firstInvalid(found, FIELDS);
    if (invalid) {
      formRef.current?.querySelector<HTMLElement>(`[name="${invalid}"]`)?.focus();
      return;
    }
    const username = values.username.trim();
    registerMutation.mutate(
      {
        username,
        email: values.email.trim(),
        password: values.password,
        businessName: values.businessName.trim() || null,
        phone: values.phone.trim() || null,
      },
      {
        onSuccess: ({ message }) => {
          toast({ title: 'Registration successful', description: message });
          onRegistered(username, message);
        },
        onError: (error) => {
          const message = serverMessage(error, 'Registration failed');
          setFailure(message);
          toast({ title: 'Registration failed', description: message, variant: 'destructive' });
        },
      },
    );
  };

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} className="space-y-5" aria-label="Create account">
      {failure ? (
        <p role="alert" className="rounded-lg border border-red-700 bg-red-50 px-4 py-3 text-sm text-red-800">
          {failure}
        </p>
      ) : null}
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="Username" error={errors.username} required>
          <Input
            name="username"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            value={values.username}
            onChange={(event) => update('username', event.target.value)}
          />
        </Field>
        <Field label="Email" error={errors.email} required>
          <Input
            name="email"
            type="email"
            autoComplete="email"
            value={values.email}
            onChange={(event) => update('email', event.target.value)}
          />
        </Field>
        <Field label="Password" error={errors.password} hint="At least 6 characters" required>
          <PasswordInput
            name="password"
            autoComplete="new-password"
            value={values.password}
            onChange={(event) => update('password', event.target.value)}
          />
        </Field>
        <Field label="Confirm password" error={errors.confirmPassword} required>
          <PasswordInput
            name="confirmPassword"
            autoComplete="new-password"
            value={values.confirmPassword}
            onChange={(event) => update('confirmPassword', event.target.value)}
          />
        </Field>
        <Field label="Business name" error={errors.businessName}>
          <Input
            name="businessName"
            autoComplete="organization"
            value={values.businessName}
            onChange={(event) => update('businessName', event.target.value)}
          />
        </Field>
        <Field label="Phone" error={errors.phone}>
          <Input
            name="phone"
            type="tel"
            autoComplete="tel"
            value={values.phone}
            onChange={(event) => update('phone', event.target.value)}
          />
        </Field>
      </div>
      <button
        type="submit"
        disabled={registerMutation.isPending}
        className="rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-70"
      >
        {registerMutation.isPending ? 'Creating account...' : 'Create Account'}
      </button>
    </form>
  );
}

import { registerFormSchema } from '@ppr/contracts';
import type { FormEvent } from 'react';
import { Field, Input, SubmitButton } from '../../../components/ui/form';
import { toast } from '../../../lib/toast';
import { useRegister } from '../api/register';
import { useValidatedForm } from '../lib/use-validated-form';
import { PasswordFields } from './password-fields';

type RegisterField = 'username' | 'email' | 'password' | 'confirmPassword' | 'businessName' | 'phone';
const FIELDS: readonly RegisterField[] = ['username', 'email', 'password', 'confirmPassword', 'businessName', 'phone'];
const EMPTY: Record<RegisterField, string> = { username: '', email: '', password: '', confirmPassword: '', businessName: '', phone: '' };

export interface RegisterFormProps {
  /** Called with the username and the server's "check your email" sentence. */
  onRegistered: (username: string, message: string) => void;
}

export function RegisterForm({ onRegistered }: RegisterFormProps) {
  const { values, errors, failure, fail, formRef, update, submit } = useValidatedForm(registerFormSchema, FIELDS, EMPTY);
  const registerMutation = useRegister();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (!submit(event)) return;
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
        onError: (error) => fail(error, 'Registration failed', 'Registration failed'),
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
        <PasswordFields
          labels={{ password: 'Password', confirmPassword: 'Confirm password' }}
          values={values}
          errors={errors}
          onChange={update}
        />
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
      <SubmitButton pending={registerMutation.isPending} pendingLabel="Creating account...">
        Create Account
      </SubmitButton>
    </form>
  );
}

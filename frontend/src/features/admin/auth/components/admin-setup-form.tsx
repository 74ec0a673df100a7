import { adminSetupFormSchema } from '@ppr/contracts';
import { useState, type FormEvent } from 'react';
import { Field, Input, PasswordInput } from '../../../../components/ui/form';
import { toast } from '../../../../lib/toast';
import { adminButton } from '../../components/styles';
import { serverMessageOr } from '../../lib/errors';
import { fieldErrors } from '../../lib/form-errors';
import { useCreateAdmin } from '../api/create-admin';

interface SetupValues {
  username: string;
  email: string;
  password: string;
  confirmPassword: string;
}
type FieldName = keyof SetupValues;
const FIELDS: readonly FieldName[] = ['username', 'email', 'password', 'confirmPassword'];

/** The one-time setup of the first admin account (SPEC section 5, admin setup). */
export function AdminSetupForm({ onCreated }: { onCreated: () => void }) {
  const [values, setValues] = useState<SetupValues>({ username: '', email: '', password: '', confirmPassword: '' });
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const create = useCreateAdmin();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = adminSetupFormSchema.safeParse(values);
    if (!parsed.success) {
      const found = fieldErrors<FieldName>(parsed.error);
      setErrors(found);
      const first = FIELDS.find((field) => found[field]);
      if (first) document.getElementById(`admin-setup-${first}`)?.focus();
      return;
    }
    setErrors({});
    const { confirmPassword: _confirm, ...body } = parsed.data;
    create.mutate(body, {
      onSuccess: () => {
        toast({ title: 'Admin account created', description: 'You can now log in to the admin dashboard.' });
        onCreated();
      },
      onError: (error) =>
        toast({
          title: 'Setup failed',
          description: serverMessageOr(error, 'Could not create the admin account. Please try again.'),
          variant: 'destructive',
        }),
    });
  };

  const field = (name: FieldName, label: string, type: 'text' | 'email' | 'password', autoComplete: string) => (
    <Field label={label} id={`admin-setup-${name}`} error={errors[name]} required>
      {type === 'password' ? (
        <PasswordInput
          name={name}
          autoComplete={autoComplete}
          value={values[name]}
          onChange={(event) => setValues({ ...values, [name]: event.target.value })}
        />
      ) : (
        <Input
          name={name}
          type={type}
          autoComplete={autoComplete}
          value={values[name]}
          onChange={(event) => setValues({ ...values, [name]: event.target.value })}
        />
      )}
    </Field>
  );

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-5" aria-label="Create the admin account">
      {field('username', 'Username', 'text', 'username')}
      {field('email', 'Email', 'email', 'email')}
      {field('password', 'Password', 'password', 'new-password')}
      {field('confirmPassword', 'Confirm Password', 'password', 'new-password')}
      <button type="submit" disabled={create.isPending} className={`${adminButton.primary} w-full py-3`}>
        {create.isPending ? 'Creating...' : 'Create Admin Account'}
      </button>
    </form>
  );
}

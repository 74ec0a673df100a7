import { changePasswordFormSchema } from '@ppr/contracts';
import { useState, type FormEvent } from 'react';
import { Field, PasswordInput } from '../../../../components/ui/form';
import { ApiRequestError } from '../../../../lib/api-client';
import { toast } from '../../../../lib/toast';
import { adminButton } from '../../components/styles';
import { fieldErrors } from '../../lib/form-errors';
import { useChangePassword } from '../api/change-password';

interface Values {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}
type FieldName = keyof Values;
const EMPTY: Values = { currentPassword: '', newPassword: '', confirmPassword: '' };
const FIELDS: readonly FieldName[] = ['currentPassword', 'newPassword', 'confirmPassword'];

/** SPEC section 5, admin change password: the rules and messages of `changePasswordFormSchema`. */
export function ChangePasswordForm() {
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const change = useChangePassword();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = changePasswordFormSchema.safeParse(values);
    if (!parsed.success) {
      const found = fieldErrors<FieldName>(parsed.error);
      setErrors(found);
      const first = FIELDS.find((field) => found[field]);
      if (first) document.getElementById(`change-password-${first}`)?.focus();
      return;
    }
    setErrors({});
    change.mutate(
      { currentPassword: parsed.data.currentPassword, newPassword: parsed.data.newPassword },
      {
        onSuccess: (answer) => {
          toast({ title: 'Password Updated', description: answer.message });
          setValues(EMPTY);
        },
        onError: (error) => {
          if (error instanceof ApiRequestError) {
            toast({ title: 'Error', description: error.serverMessage ?? 'Failed to update password', variant: 'destructive' });
          } else {
            toast({ title: 'Error', description: 'An unexpected error occurred. Please try again.', variant: 'destructive' });
          }
        },
      },
    );
  };

  const field = (name: FieldName, label: string, autoComplete: string, hint?: string) => (
    <Field label={label} id={`change-password-${name}`} error={errors[name]} hint={hint} required>
      <PasswordInput
        name={name}
        autoComplete={autoComplete}
        value={values[name]}
        onChange={(event) => setValues({ ...values, [name]: event.target.value })}
      />
    </Field>
  );

  return (
    <form noValidate onSubmit={onSubmit} aria-label="Change password" className="max-w-md space-y-4">
      {field('currentPassword', 'Current Password', 'current-password')}
      {field(
        'newPassword',
        'New Password',
        'new-password',
        'At least 8 characters, with an uppercase letter, a lowercase letter and a number.',
      )}
      {field('confirmPassword', 'Confirm New Password', 'new-password')}
      <button type="submit" disabled={change.isPending} className={adminButton.primary}>
        {change.isPending ? 'Updating...' : 'Update Password'}
      </button>
    </form>
  );
}

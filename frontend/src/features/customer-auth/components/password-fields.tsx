import { Field, PasswordInput } from '../../../components/ui/form';

export type PasswordField = 'password' | 'confirmPassword';

export interface PasswordFieldsProps {
  /** The two labels, e.g. 'Password' / 'Confirm password' or 'New password' / 'Confirm new password'. */
  labels: Readonly<Record<PasswordField, string>>;
  values: Readonly<Record<PasswordField, string>>;
  errors: Readonly<Partial<Record<PasswordField, string>>>;
  onChange: (field: PasswordField, value: string) => void;
}

/** A new password and its confirmation (register and reset password): two fields, laid out by the parent. */
export function PasswordFields({ labels, values, errors, onChange }: PasswordFieldsProps) {
  return (
    <>
      <Field label={labels.password} error={errors.password} hint="At least 6 characters" required>
        <PasswordInput
          name="password"
          autoComplete="new-password"
          value={values.password}
          onChange={(event) => onChange('password', event.target.value)}
        />
      </Field>
      <Field label={labels.confirmPassword} error={errors.confirmPassword} required>
        <PasswordInput
          name="confirmPassword"
          autoComplete="new-password"
          value={values.confirmPassword}
          onChange={(event) => onChange('confirmPassword', event.target.value)}
        />
      </Field>
    </>
  );
}

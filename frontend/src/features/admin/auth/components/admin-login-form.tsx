import { adminLoginSchema, type AdminLogin } from '@ppr/contracts';
import { useState, type FormEvent } from 'react';
import { Field, Input, PasswordInput } from '../../../../components/ui/form';
import { toast } from '../../../../lib/toast';
import { adminButton } from '../../components/styles';
import { serverMessageOr } from '../../lib/errors';
import { fieldErrors } from '../../lib/form-errors';
import { useLoginAdmin } from '../api/login-admin';

type Errors = Partial<Record<keyof AdminLogin, string>>;

/** /admin/login: username and password; success goes on through `onLoggedIn`. */
export function AdminLoginForm({ onLoggedIn }: { onLoggedIn: () => void }) {
  const [values, setValues] = useState<AdminLogin>({ username: '', password: '' });
  const [errors, setErrors] = useState<Errors>({});
  const login = useLoginAdmin();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = adminLoginSchema.safeParse(values);
    if (!parsed.success) {
      const found = fieldErrors<keyof AdminLogin>(parsed.error);
      setErrors(found);
      document.getElementById(found.username ? 'admin-login-username' : 'admin-login-password')?.focus();
      return;
    }
    setErrors({});
    login.mutate(parsed.data, {
      onSuccess: onLoggedIn,
      onError: (error) =>
        toast({ title: 'Login failed', description: serverMessageOr(error, 'Invalid credentials'), variant: 'destructive' }),
    });
  };

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-5" aria-label="Admin login">
      <Field label="Username" id="admin-login-username" error={errors.username} required>
        <Input
          name="username"
          autoComplete="username"
          value={values.username}
          onChange={(event) => setValues({ ...values, username: event.target.value })}
        />
      </Field>
      <Field label="Password" id="admin-login-password" error={errors.password} required>
        <PasswordInput
          name="password"
          autoComplete="current-password"
          value={values.password}
          onChange={(event) => setValues({ ...values, password: event.target.value })}
        />
      </Field>
      <button type="submit" disabled={login.isPending} className={`${adminButton.primary} w-full py-3`}>
        {login.isPending ? 'Logging in...' : 'Log In'}
      </button>
    </form>
  );
}

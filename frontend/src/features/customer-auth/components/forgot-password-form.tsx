import { forgotPasswordSchema } from '@ppr/contracts';
import { useRef, useState, type FormEvent } from 'react';
import { Field, Input, SubmitButton } from '../../../components/ui/form';
import { toast } from '../../../lib/toast';
import { useForgotPassword } from '../api/forgot-password';
import { fieldErrors, serverMessage } from '../lib/form-errors';

export function ForgotPasswordForm() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [submitted, setSubmitted] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const forgot = useForgotPassword();

  const validate = (value: string) => fieldErrors(forgotPasswordSchema, { email: value }, ['email']).email;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    const found = validate(email);
    setError(found);
    if (found) {
      inputRef.current?.focus();
      return;
    }
    forgot.mutate(
      { email: email.trim() },
      {
        onSuccess: ({ message }) => setSent(message),
        onError: (failure) =>
          toast({
            title: 'Error',
            description: serverMessage(failure, 'Could not send the reset link. Please try again.'),
            variant: 'destructive',
          }),
      },
    );
  };

  if (sent) {
    return (
      <p role="status" className="rounded-lg border border-green-700 bg-green-50 px-4 py-3 text-green-800">
        {sent}
      </p>
    );
  }

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-5" aria-label="Reset password">
      <Field label="Email" error={error} required>
        <Input
          ref={inputRef}
          name="email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
            if (submitted) setError(validate(event.target.value));
          }}
        />
      </Field>
      <SubmitButton pending={forgot.isPending} pendingLabel="Sending...">
        Send Reset Link
      </SubmitButton>
    </form>
  );
}

import type { CurrentCustomer } from '@ppr/contracts';
import { toast } from '../../../lib/toast';
import { useResendVerification } from '../api/resend-verification';
import { serverMessage } from '../lib/form-errors';

/** Shown to a customer who logged in by username before verifying: linking earlier requests waits for it. */
export function VerifyEmailNotice({ customer }: { customer: CurrentCustomer }) {
  const resend = useResendVerification();
  if (customer.emailVerified) return null;
  return (
    <div className="rounded-lg border border-amber-600 bg-amber-50 px-4 py-3 text-amber-900">
      <p>
        Please verify your email address ({customer.email}) using the link we emailed you. Requests you submitted earlier with this address
        appear here once it is verified.
      </p>
      <button
        type="button"
        disabled={resend.isPending || resend.isSuccess}
        onClick={() =>
          resend.mutate(undefined, {
            onSuccess: ({ message }) => toast({ title: 'Verification email', description: message }),
            onError: (error) =>
              toast({
                title: 'Error',
                description: serverMessage(error, 'Could not send the email. Please try again.'),
                variant: 'destructive',
              }),
          })
        }
        className="mt-2 font-semibold text-amber-900 underline disabled:opacity-70"
      >
        {resend.isSuccess ? 'Verification email sent' : 'Resend verification email'}
      </button>
    </div>
  );
}

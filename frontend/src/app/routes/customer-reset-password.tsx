import { useSearchParams } from 'react-router-dom';
import { ResetPasswordForm } from '../../features/customer-auth/components/reset-password-form';

/** The page the password-reset email links to: /customer/reset-password?token=... */
export default function CustomerResetPasswordRoute() {
  const [searchParams] = useSearchParams();
  return (
    <section className="mx-auto max-w-xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Choose a New Password</h1>
      <p className="mt-2 text-slate-700">Enter a new password for your account. You will then log in with it.</p>
      <div className="mt-6 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <ResetPasswordForm token={searchParams.get('token')} />
      </div>
    </section>
  );
}

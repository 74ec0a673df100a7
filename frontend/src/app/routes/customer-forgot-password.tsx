import { Link } from 'react-router-dom';
import { paths } from '../../config/paths';
import { ForgotPasswordForm } from '../../features/customer-auth/components/forgot-password-form';

export default function CustomerForgotPasswordRoute() {
  return (
    <section className="mx-auto max-w-xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Reset Password</h1>
      <p className="mt-2 text-slate-700">Enter the email address of your account and we will email you a link to choose a new password.</p>
      <div className="mt-6 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <ForgotPasswordForm />
      </div>
      <p className="mt-6">
        <Link to={paths.customerLogin.getHref()} className="font-semibold text-brand-700 underline hover:text-brand-800">
          Back to Login
        </Link>
      </p>
    </section>
  );
}

import { Link, useNavigate } from 'react-router-dom';
import { paths } from '../../config/paths';
import { AdminLoginForm } from '../../features/admin/auth/components/admin-login-form';

export default function AdminLoginRoute() {
  const navigate = useNavigate();
  return (
    <section className="mx-auto max-w-md px-4 py-16 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Admin Login</h1>
      <p className="mt-2 text-slate-700">Log in to manage support tickets, emails and settings.</p>
      <div className="mt-8 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <AdminLoginForm onLoggedIn={() => void navigate(paths.adminDashboard.getHref())} />
      </div>
      <p className="mt-6 text-center">
        <Link to={paths.home.getHref()} className="font-semibold text-brand-700 underline">
          Return to Website
        </Link>
      </p>
    </section>
  );
}

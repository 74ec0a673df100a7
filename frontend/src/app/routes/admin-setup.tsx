import { useState } from 'react';
import { Link } from 'react-router-dom';
import { buttonClasses } from '../../components/button-link';
import { Spinner } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { useSetupStatus } from '../../features/admin/auth/api/get-setup-status';
import { AdminSetupForm } from '../../features/admin/auth/components/admin-setup-form';

function GoToLogin({ heading, text }: { heading: string; text: string }) {
  return (
    <div className="rounded-xl border border-green-700 bg-green-50 p-6">
      <h2 className="text-xl font-bold text-slate-900">{heading}</h2>
      <p className="mt-2 text-slate-700">{text}</p>
      <Link to={paths.adminLogin.getHref()} className={`${buttonClasses('primary')} mt-4`}>
        Go to Login
      </Link>
    </div>
  );
}

export default function AdminSetupRoute() {
  const status = useSetupStatus();
  const [created, setCreated] = useState(false);

  let body;
  if (created) {
    body = <GoToLogin heading="Admin account created" text="The admin account is ready. Log in to open the dashboard." />;
  } else if (status.isPending) {
    body = <Spinner label="Checking setup status..." showLabel />;
  } else if (status.data?.setupOpen === false) {
    body = <GoToLogin heading="Setup is already done" text="The admin account has already been set up. Please log in." />;
  } else {
    body = (
      <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <AdminSetupForm onCreated={() => setCreated(true)} />
      </div>
    );
  }

  return (
    <section className="mx-auto max-w-md px-4 py-16 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Admin Setup</h1>
      <p className="mt-2 text-slate-700">Create the first admin account. This can be done only once.</p>
      <div className="mt-8">{body}</div>
      <p className="mt-6 text-center">
        <Link to={paths.home.getHref()} className="font-semibold text-brand-700 underline">
          Return to Website
        </Link>
      </p>
    </section>
  );
}

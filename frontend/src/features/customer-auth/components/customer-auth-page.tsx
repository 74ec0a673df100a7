import * as Tabs from '@radix-ui/react-tabs';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { DEFAULT_AFTER_LOGIN, safeReturnTo } from '../lib/return-to';
import { useAfterLogin } from '../lib/use-after-login';
import { LoginForm } from './login-form';
import { RegisterForm } from './register-form';
import { VerifiedBanner } from './verified-banner';

export type AuthTab = 'login' | 'register';

const tabClass =
  'flex-1 rounded-md px-4 py-2 text-center font-semibold text-slate-700 hover:text-slate-900 data-[state=active]:bg-white data-[state=active]:text-brand-800 data-[state=active]:shadow focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-700';

/** /customer/login and /customer/register: one page, two tabs (SPEC section 2). */
export function CustomerAuthPage({ initialTab }: { initialTab: AuthTab }) {
  const [searchParams] = useSearchParams();
  const [tab, setTab] = useState<AuthTab>(initialTab);
  const [registered, setRegistered] = useState<{ username: string; message: string } | null>(null);
  const goAfterLogin = useAfterLogin();
  const returnTo = safeReturnTo(searchParams.get('returnTo'));

  return (
    <section className="mx-auto max-w-xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">My Account</h1>
      <p className="mt-2 text-slate-700">Log in to follow your support requests, or create an account.</p>
      <div className="mt-6">
        <VerifiedBanner show={searchParams.get('verified') === 'true'} />
      </div>
      <Tabs.Root value={tab} onValueChange={(value) => setTab(value === 'register' ? 'register' : 'login')} className="mt-4">
        <Tabs.List aria-label="Log in or create an account" className="flex gap-1 rounded-lg bg-slate-100 p-1">
          <Tabs.Trigger value="login" className={tabClass}>
            Login
          </Tabs.Trigger>
          <Tabs.Trigger value="register" className={tabClass}>
            Register
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="login" className="mt-6 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
          {registered ? (
            <p role="status" className="mb-5 rounded-lg border border-green-700 bg-green-50 px-4 py-3 text-sm text-green-800">
              {registered.message}
            </p>
          ) : null}
          <LoginForm
            key={registered?.username ?? ''}
            initialIdentifier={registered?.username ?? ''}
            onLoggedIn={() => goAfterLogin(returnTo ?? DEFAULT_AFTER_LOGIN)}
          />
        </Tabs.Content>
        <Tabs.Content value="register" className="mt-6 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
          <RegisterForm
            onRegistered={(username, message) => {
              setRegistered({ username, message });
              setTab('login');
            }}
          />
        </Tabs.Content>
      </Tabs.Root>
    </section>
  );
}

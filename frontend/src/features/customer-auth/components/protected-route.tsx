import type { CurrentCustomer } from '@ppr/contracts';
import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { useCustomerUser } from '../api/get-customer-user';
import { hardRedirect } from '../lib/hard-redirect';
import { withReturnTo } from '../lib/return-to';

/** SPEC section 9: if the soft redirect has not left the protected page after 300 ms, the browser is sent there. */
export const PROTECTED_FALLBACK_MS = 300;

/** Exported for its test: the soft redirect, plus the hard one should the page still be on the protected path. */
export function LoginRedirect({ from }: { from: string }) {
  const loginHref = withReturnTo(paths.customerLogin.getHref(), from);
  useEffect(() => {
    const timer = setTimeout(() => {
      if (window.location.pathname === new URL(from, window.location.origin).pathname) hardRedirect(loginHref);
    }, PROTECTED_FALLBACK_MS);
    return () => clearTimeout(timer);
  }, [from, loginHref]);
  return <Navigate to={loginHref} replace />;
}

/**
 * Renders its children only for a logged-in customer: a spinner while the lookup loads, the login page (with a
 * `returnTo` back here) when nobody is logged in.
 */
export function ProtectedRoute({ children }: { children: (customer: CurrentCustomer) => ReactNode }) {
  const location = useLocation();
  const user = useCustomerUser();

  if (user.isPending) {
    return (
      <div className="flex min-h-[50vh] items-center justify-center">
        <Spinner size="lg" label="Checking your account..." showLabel />
      </div>
    );
  }
  if (user.isError || !user.data) {
    return <LoginRedirect from={`${location.pathname}${location.search}`} />;
  }
  return <>{children(user.data)}</>;
}

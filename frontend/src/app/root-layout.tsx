import { Suspense, useEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { AppErrorBoundary } from '../components/errors/app-error-boundary';
import { SiteFooter } from '../components/layout/site-footer';
import { SiteHeader } from '../components/layout/site-header';
import { Toaster } from '../components/layout/toaster';
import { usePageViews } from '../features/page-views/use-page-views';
import { jumpToTop } from '../lib/scroll';
import { RouteHead } from './route-head';

function PageLoading() {
  return (
    <div role="status" className="mx-auto max-w-6xl px-4 py-24 text-center text-slate-600">
      Loading…
    </div>
  );
}

/** Moves focus to the main content after a client-side navigation, so screen readers start at the new page. */
function useFocusMainOnNavigate(main: React.RefObject<HTMLElement | null>) {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    jumpToTop();
    main.current?.focus({ preventScroll: true });
  }, [pathname, main]);
}

export function RootLayout() {
  const mainRef = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  useFocusMainOnNavigate(mainRef);
  usePageViews();
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded bg-amber-400 px-4 py-2 font-semibold text-slate-950 focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
      >
        Skip to main content
      </a>
      <RouteHead />
      <SiteHeader />
      <main id="main" ref={mainRef} tabIndex={-1} className="flex-1 outline-none">
        {/* Inside <main>: a failing page keeps the header, footer and navigation; moving to another page clears it. */}
        <AppErrorBoundary resetKey={pathname}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </AppErrorBoundary>
      </main>
      <SiteFooter />
      <Toaster />
    </div>
  );
}

import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

/** The admin portal is not counted (SPEC section 2, Global). */
export function isTrackedPath(pathname: string): boolean {
  return !(pathname === '/admin' || pathname.startsWith('/admin/'));
}

/**
 * Records every route change except the admin portal's. The request code is loaded on first use, after the
 * page has rendered, so counting adds nothing to the JavaScript a page needs to show. A failure (offline, the
 * rate limit) is ignored: counting never bothers the visitor.
 */
export function usePageViews(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    if (!isTrackedPath(pathname)) return;
    import('./api/record-page-view').then(({ recordPageView }) => recordPageView(pathname)).catch(() => undefined);
  }, [pathname]);
}

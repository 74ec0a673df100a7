import { QueryClientProvider } from '@tanstack/react-query';
import * as Tooltip from '@radix-ui/react-tooltip';
import { useState, type ReactNode } from 'react';
import { AppErrorBoundary } from '../components/errors/app-error-boundary';
import { createQueryClient } from '../lib/query-client';

/** The app-level fallback sits outside the layout, so it brings its own main landmark. */
const inMain = (fallback: ReactNode) => (
  <main id="main" className="min-h-screen">
    {fallback}
  </main>
);

/**
 * Providers shared by the browser entry, the prerenderer and the tests. The outer error boundary catches what
 * the page-level one in RootLayout cannot: a failure in the layout, header or router itself.
 */
export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <AppErrorBoundary wrapFallback={inMain}>
      <QueryClientProvider client={queryClient}>
        <Tooltip.Provider delayDuration={700} skipDelayDuration={300}>
          {children}
        </Tooltip.Provider>
      </QueryClientProvider>
    </AppErrorBoundary>
  );
}

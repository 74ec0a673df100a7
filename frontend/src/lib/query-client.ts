import { QueryClient } from '@tanstack/react-query';

/** SPEC section 9: cached data is fresh forever, no refetch on focus, no retries by default. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: Infinity, refetchInterval: false, refetchOnWindowFocus: false, retry: false },
      mutations: { retry: false },
    },
  });
}

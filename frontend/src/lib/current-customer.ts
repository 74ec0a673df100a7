import { currentCustomerSchema, type CurrentCustomer } from '@ppr/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiRequestError, apiRequest } from './api-client';

/** One cache entry for "who is logged in", whichever screen asks. */
export const currentCustomerQueryKey = ['customer', 'user'] as const;

/** GET /api/customer/user: the logged-in customer, or null (a 401 means "not logged in" here, SPEC section 7). */
export async function getCurrentCustomer(): Promise<CurrentCustomer | null> {
  try {
    return await apiRequest('/api/customer/user', currentCustomerSchema);
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 401) return null;
    throw error;
  }
}

/**
 * SPEC section 9: the customer lookup is never served from the cache; the request and payment screens do not
 * retry it (retry 0), the route guard retries once.
 */
export const currentCustomerQueryOptions = (retry: 0 | 1 = 0) =>
  queryOptions({ queryKey: currentCustomerQueryKey, queryFn: getCurrentCustomer, staleTime: 0, retry });

export function useCurrentCustomer() {
  return useQuery(currentCustomerQueryOptions());
}

import { currentCustomerSchema, type CurrentCustomer } from '@ppr/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiRequestError, apiRequest } from '../../../lib/api-client';

/** GET /api/customer/user: the logged-in customer, or null (a 401 means "not logged in" here, SPEC section 7). */
export async function getCurrentCustomer(): Promise<CurrentCustomer | null> {
  try {
    return await apiRequest('/api/customer/user', currentCustomerSchema);
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 401) return null;
    throw error;
  }
}

export const currentCustomerQueryOptions = () =>
  // SPEC section 9: the customer lookup is never served from the cache; no retry before payment.
  queryOptions({ queryKey: ['customer', 'user'], queryFn: getCurrentCustomer, staleTime: 0, retry: false });

export function useCurrentCustomer() {
  return useQuery(currentCustomerQueryOptions());
}

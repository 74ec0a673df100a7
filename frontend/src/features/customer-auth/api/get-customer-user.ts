import { currentCustomerSchema, type CurrentCustomer } from '@ppr/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiRequestError, apiRequest } from '../../../lib/api-client';

export const customerUserQueryKey = ['customer', 'user'] as const;

/** GET /api/customer/user: the logged-in customer, or null when nobody is (a 401 means "no user", not an error). */
export async function getCustomerUser(): Promise<CurrentCustomer | null> {
  try {
    return await apiRequest('/api/customer/user', currentCustomerSchema);
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 401) return null;
    throw error;
  }
}

/** SPEC section 7: the route guard's lookup is never served from cache and retries once. */
export function customerUserQueryOptions() {
  return queryOptions({ queryKey: customerUserQueryKey, queryFn: getCustomerUser, staleTime: 0, retry: 1 });
}

export function useCustomerUser() {
  return useQuery(customerUserQueryOptions());
}

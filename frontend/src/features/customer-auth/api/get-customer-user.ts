import { useQuery } from '@tanstack/react-query';
import { currentCustomerQueryKey, currentCustomerQueryOptions, getCurrentCustomer } from '../../../lib/current-customer';

export const customerUserQueryKey = currentCustomerQueryKey;

/** GET /api/customer/user: the logged-in customer, or null when nobody is (a 401 means "no user", not an error). */
export const getCustomerUser = getCurrentCustomer;

/** SPEC section 7: the route guard's lookup is never served from cache and retries once. */
export function customerUserQueryOptions() {
  return currentCustomerQueryOptions(1);
}

export function useCustomerUser() {
  return useQuery(customerUserQueryOptions());
}

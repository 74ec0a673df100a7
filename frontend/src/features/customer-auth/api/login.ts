import { currentCustomerSchema, type CurrentCustomer, type CustomerLogin } from '@ppr/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { customerUserQueryKey } from './get-customer-user';

/** POST /api/customer/login: `email` carries the email address or the username. */
export function login(body: CustomerLogin): Promise<CurrentCustomer> {
  return apiRequest('/api/customer/login', currentCustomerSchema, { method: 'POST', body });
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (customer) => {
      // Another customer may have used this browser: nothing cached belongs to the new one.
      queryClient.removeQueries({ queryKey: ['customer'] });
      queryClient.setQueryData(customerUserQueryKey, customer);
    },
  });
}

import { emailSubscriptionSchema, type EmailSubscription, type UpdateEmailSubscription } from '@ppr/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';

/** PATCH /api/admin/email-subscriptions/{id}: subscribe or unsubscribe an address. */
export function updateEmailSubscription(id: number, body: UpdateEmailSubscription): Promise<EmailSubscription> {
  return apiRequest(`/api/admin/email-subscriptions/${id}`, emailSubscriptionSchema, { method: 'PATCH', body });
}

export function useUpdateEmailSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateEmailSubscription }) => updateEmailSubscription(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'email-subscriptions'] }),
  });
}

import { emailSubscriptionListSchema, type EmailSubscriptionList } from '@ppr/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';

export type SubscribedFilter = 'all' | 'true' | 'false';

/** GET /api/admin/email-subscriptions: optionally only the subscribed or the unsubscribed. */
export function getEmailSubscriptions(subscribed: SubscribedFilter, page: number): Promise<EmailSubscriptionList> {
  const params = new URLSearchParams({ page: String(page) });
  if (subscribed !== 'all') params.set('subscribed', subscribed);
  return apiRequest(`/api/admin/email-subscriptions?${params.toString()}`, emailSubscriptionListSchema);
}

export const emailSubscriptionsQueryOptions = (subscribed: SubscribedFilter, page: number) =>
  queryOptions({
    queryKey: ['admin', 'email-subscriptions', { subscribed, page }],
    queryFn: () => getEmailSubscriptions(subscribed, page),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });

export function useEmailSubscriptions(subscribed: SubscribedFilter, page: number) {
  return useQuery(emailSubscriptionsQueryOptions(subscribed, page));
}

import { EMAIL_LOG_DEFAULT_LIMIT, emailNotificationListSchema, type EmailNotificationList } from '@ppr/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';

/** GET /api/admin/email-notifications: the newest entries of the email log (default 20). */
export function getEmailNotifications(limit: number): Promise<EmailNotificationList> {
  return apiRequest(`/api/admin/email-notifications?limit=${limit}`, emailNotificationListSchema);
}

export const emailNotificationsQueryOptions = (limit: number = EMAIL_LOG_DEFAULT_LIMIT) =>
  queryOptions({ queryKey: ['admin', 'email-notifications', { limit }], queryFn: () => getEmailNotifications(limit), staleTime: 0 });

export function useEmailNotifications(limit: number) {
  return useQuery(emailNotificationsQueryOptions(limit));
}

import { emailNotificationListSchema, type EmailNotificationList } from '@ppr/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';

/** GET /api/admin/tickets/{id}/email-notifications: every email sent about one ticket. */
export function getTicketEmailNotifications(ticketId: number): Promise<EmailNotificationList> {
  return apiRequest(`/api/admin/tickets/${ticketId}/email-notifications`, emailNotificationListSchema);
}

export const ticketEmailNotificationsQueryOptions = (ticketId: number) =>
  queryOptions({
    queryKey: ['admin', 'email-notifications', 'ticket', ticketId],
    queryFn: () => getTicketEmailNotifications(ticketId),
    staleTime: 0,
  });

export function useTicketEmailNotifications(ticketId: number) {
  return useQuery(ticketEmailNotificationsQueryOptions(ticketId));
}

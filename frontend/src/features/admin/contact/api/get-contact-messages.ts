import { contactMessageListSchema, type ContactMessageList } from '@ppr/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';

/** GET /api/admin/contact-messages: the contact form's messages, newest first. */
export function getContactMessages(page: number): Promise<ContactMessageList> {
  return apiRequest(`/api/admin/contact-messages?page=${page}`, contactMessageListSchema);
}

export const contactMessagesQueryOptions = (page: number) =>
  queryOptions({
    queryKey: ['admin', 'contact-messages', { page }],
    queryFn: () => getContactMessages(page),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });

export function useContactMessages(page: number) {
  return useQuery(contactMessagesQueryOptions(page));
}

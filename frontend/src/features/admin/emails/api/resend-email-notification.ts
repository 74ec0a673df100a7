import { emailResendResultSchema, type EmailResendResult } from '@ppr/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';

/** POST /api/admin/email-notifications/{id}/resend: a new attempt, logged as its own entry. */
export function resendEmailNotification(id: string): Promise<EmailResendResult> {
  return apiRequest(`/api/admin/email-notifications/${encodeURIComponent(id)}/resend`, emailResendResultSchema, { method: 'POST' });
}

export function useResendEmailNotification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendEmailNotification,
    // A failed resend is logged too, so the log is read again either way.
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin', 'email-notifications'] }),
  });
}

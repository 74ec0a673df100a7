import { adminTicketSchema, type AdminRefund } from '@ppr/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../../lib/api-client';

// The answer of the refund command (contracts has no schema for it): 'pending' while the gateway confirms.
export const refundResultSchema = z.object({ refundStatus: z.enum(['refunded', 'pending']), ticket: adminTicketSchema });
export type RefundResult = z.infer<typeof refundResultSchema>;

/** POST /api/admin/tickets/{id}/refund: a full refund of the fee through the payment gateway. */
export function refundTicket(ticketId: number, body: AdminRefund): Promise<RefundResult> {
  return apiRequest(`/api/admin/tickets/${ticketId}/refund`, refundResultSchema, { method: 'POST', body });
}

export function useRefundTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ticketId, body }: { ticketId: number; body: AdminRefund }) => refundTicket(ticketId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'tickets'] }),
  });
}

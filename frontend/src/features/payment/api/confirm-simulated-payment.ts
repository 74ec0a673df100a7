import { simulatedConfirmResponseSchema, type SimulatedConfirmInput, type SimulatedConfirmResponse } from '@ppr/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/payments/simulated/confirm: the test-mode card form's charge (no real money moves). */
export function confirmSimulatedPayment(body: SimulatedConfirmInput): Promise<SimulatedConfirmResponse> {
  return apiRequest('/api/payments/simulated/confirm', simulatedConfirmResponseSchema, { method: 'POST', body });
}

export function useConfirmSimulatedPayment() {
  return useMutation({ mutationFn: confirmSimulatedPayment });
}

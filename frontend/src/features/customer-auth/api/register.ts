import { messageResponseSchema, type MessageResponse, type RegisterRequest } from '@ppr/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/customer/register (no confirmPassword): answers the "check your email" sentence. */
export function register(body: RegisterRequest): Promise<MessageResponse> {
  return apiRequest('/api/customer/register', messageResponseSchema, { method: 'POST', body });
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}

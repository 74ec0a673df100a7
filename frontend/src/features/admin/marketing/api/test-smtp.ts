import { messageResponseSchema, type MessageResponse, type TestSmtp } from '@ppr/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';

/** POST /api/admin/test-smtp: checks the mail server and sends one message. */
export function testSmtp(body: TestSmtp): Promise<MessageResponse> {
  return apiRequest('/api/admin/test-smtp', messageResponseSchema, { method: 'POST', body });
}

export function useTestSmtp() {
  return useMutation({ mutationFn: testSmtp });
}

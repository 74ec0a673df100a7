import { testMarketingEmailResponseSchema, type TestMarketingEmail, type TestMarketingEmailResponse } from '@ppr/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client';

/** POST /api/admin/test-marketing-email: the composed email to one address. */
export function sendTestMarketingEmail(body: TestMarketingEmail): Promise<TestMarketingEmailResponse> {
  return apiRequest('/api/admin/test-marketing-email', testMarketingEmailResponseSchema, { method: 'POST', body });
}

export function useSendTestMarketingEmail() {
  return useMutation({ mutationFn: sendTestMarketingEmail });
}

import { unsubscribeTokenInfoSchema, type UnsubscribeTokenInfo } from '@ppr/contracts';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/unsubscribe/{token}: the address an unsubscribe link belongs to. */
export function getUnsubscribeToken(token: string): Promise<UnsubscribeTokenInfo> {
  return apiRequest(`/api/unsubscribe/${encodeURIComponent(token)}`, unsubscribeTokenInfoSchema);
}

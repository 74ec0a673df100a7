import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/unsubscribe/{token}: the address an unsubscribe link belongs to. */
export const unsubscribeTokenSchema = z.object({ email: z.string() });
export type UnsubscribeTokenInfo = z.infer<typeof unsubscribeTokenSchema>;

export function getUnsubscribeToken(token: string): Promise<UnsubscribeTokenInfo> {
  return apiRequest(`/api/unsubscribe/${encodeURIComponent(token)}`, unsubscribeTokenSchema);
}

import { type ContactCreated, contactCreatedSchema, type ContactRequest } from '@ppr/contracts';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/contact: the message is stored and emailed to the staff. */
export function sendContactMessage(body: ContactRequest): Promise<ContactCreated> {
  return apiRequest('/api/contact', contactCreatedSchema, { method: 'POST', body });
}

import { type ContactMessage, formatBusinessDateTime } from '@ppr/contracts';
import { renderMailTemplate } from '../mail/templates';

/**
 * The staff's copy of a contact-form message: the template files backend/src/mail/templates/contact-message.*.hbs,
 * rendered on the one layout by mail/templates.ts. With a base URL it links to the admin portal's messages.
 */
export function contactStaffEmail(message: ContactMessage, baseUrl: string | undefined): { subject: string; text: string; html: string } {
  return renderMailTemplate('contact-message', {
    id: message.id,
    name: message.name,
    email: message.email,
    phone: message.phone,
    subject: message.subject,
    message: message.message,
    // When it came, as staff in Arlington read a clock.
    received: formatBusinessDateTime(message.createdAt),
    adminUrl: baseUrl ? `${baseUrl.replace(/\/+$/, '')}/admin/dashboard` : null,
  });
}

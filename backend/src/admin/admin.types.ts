import type { AdminUser } from '@ppr/contracts';

/** What an admin session puts on request.user (sessions store `admin:{id}`). */
export interface AdminPrincipal {
  readonly kind: 'admin';
  readonly id: number;
  readonly username: string;
  readonly email: string;
  readonly role: AdminUser['role'];
}

import { type CanActivate, type ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { adminMessages, type ApiError } from '@ppr/contracts';
import type { Request } from 'express';
import type { AdminPrincipal } from './admin.types';

/** The admin of this request's session, or null: a customer's session is not an admin's. */
export function currentAdmin(request: Request): AdminPrincipal | null {
  const user = request.user as (Express.User & Partial<AdminPrincipal>) | undefined;
  return user?.kind === 'admin' ? (user as AdminPrincipal) : null;
}

/** The logged-in admin, or the 401 the admin screens read as "log in again" (SPEC section 8). */
export function requireAdmin(request: Request): AdminPrincipal {
  const admin = currentAdmin(request);
  if (!admin) throw new UnauthorizedException({ message: adminMessages.notLoggedIn } satisfies ApiError);
  return admin;
}

/**
 * Every admin endpoint but login, logout, setup and its status. Sessions store `kind:id`, and passport's
 * loader for the kind builds request.user, so a customer's session (kind 'customer') never passes.
 */
@Injectable()
export class AdminGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    requireAdmin(context.switchToHttp().getRequest<Request>());
    return true;
  }
}

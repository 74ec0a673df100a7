import { CanActivate, type ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { accountMessages, type ApiError } from '@ppr/contracts';
import type { Request } from 'express';

/** Who a session belongs to. Customers now; admins get their own kind (and passport strategy) later. */
export type PrincipalKind = 'customer' | 'admin';

export interface CustomerPrincipal {
  readonly kind: 'customer';
  readonly id: number;
  readonly username: string;
  readonly email: string;
  readonly emailVerified: boolean;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    // What passport puts on request.user.
    interface User {
      readonly kind: PrincipalKind;
      readonly id: number;
    }
  }
}

/** The key a principal is stored under in its session: `customer:12`. */
export function principalKey(kind: PrincipalKind, id: number): string {
  return `${kind}:${id}`;
}

/**
 * Whether the session a request came with still exists and still belongs to the same principal. A response
 * that stays open (an event feed) asks again at every heartbeat, so a logout, a session ended by an admin or
 * by a password change, or its expiry, ends it too, whichever instance served the logout. A store that
 * cannot answer is not a logout: the next heartbeat asks again.
 */
export function sessionStillHolds(request: Request): Promise<boolean> {
  const user = request.user;
  const store = request.sessionStore as Request['sessionStore'] | undefined;
  if (!user || !store || !request.sessionID) return Promise.resolve(false);
  const expected = principalKey(user.kind, user.id);
  return new Promise((resolve) => {
    store.get(request.sessionID, (error: unknown, data) => {
      const owner = (data as { passport?: { user?: unknown } } | null | undefined)?.passport?.user;
      resolve(error ? true : owner === expected);
    });
  });
}

export function currentCustomer(request: Request): CustomerPrincipal | null {
  const user = request.user as (Express.User & Partial<CustomerPrincipal>) | undefined;
  return user?.kind === 'customer' ? (user as CustomerPrincipal) : null;
}

/** The logged-in customer, or a 401 the SPA reads as "no user". */
export function requireCustomer(request: Request): CustomerPrincipal {
  const customer = currentCustomer(request);
  if (!customer) throw new UnauthorizedException({ message: accountMessages.notLoggedIn } satisfies ApiError);
  return customer;
}

@Injectable()
export class CustomerGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    requireCustomer(context.switchToHttp().getRequest<Request>());
    return true;
  }
}

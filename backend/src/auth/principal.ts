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

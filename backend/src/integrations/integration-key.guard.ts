import { type CanActivate, type ExecutionContext, ForbiddenException, Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { type ApiError, integrationMessages } from '@ppr/contracts';
import type { Request, Response } from 'express';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { authenticateKey, type IntegrationKeyPrincipal } from './integration-keys';

const KEY = Symbol('integrationKey');

/** The integration key IntegrationKeyGuard accepted for this request. */
export function integrationKeyOf(request: Request): IntegrationKeyPrincipal {
  const key = (request as Request & { [KEY]?: IntegrationKeyPrincipal })[KEY];
  if (!key) throw new UnauthorizedException({ message: integrationMessages.keyRequired } satisfies ApiError);
  return key;
}

/**
 * `Authorization: Bearer <key>` with an active key that has an events scope. Looked up in the database on
 * every request, so a revoked key is refused from the moment it is revoked, by every instance.
 */
@Injectable()
export class IntegrationKeyGuard implements CanActivate {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.header('authorization') ?? '');
    const key = match ? await authenticateKey(this.db.pool, match[1]!) : null;
    if (!key) {
      http.getResponse<Response>().setHeader('WWW-Authenticate', 'Bearer realm="integrations"');
      throw new UnauthorizedException({ message: integrationMessages.keyRequired } satisfies ApiError);
    }
    if (!key.scopes.includes('events') && !key.scopes.includes('events:personal')) {
      throw new ForbiddenException({ message: integrationMessages.scopeMissing } satisfies ApiError);
    }
    (request as Request & { [KEY]?: IntegrationKeyPrincipal })[KEY] = key;
    return true;
  }
}

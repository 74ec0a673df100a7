import { randomUUID } from 'node:crypto';
import type { Actor } from '@ppr/contracts';
import type { Request } from 'express';

/** Who asked and under which correlation id: what every command carries into its events' metadata. */
export interface RequestContext {
  readonly actor: Actor;
  readonly correlationId: string;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,100}$/;

export function requestContext(request: Request, actor: Actor = { kind: 'visitor', id: null }): RequestContext {
  const header = request.header('x-request-id');
  return { actor, correlationId: header && REQUEST_ID.test(header) ? header : randomUUID() };
}

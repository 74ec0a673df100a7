export * from './apply';
export * from './checkpoints';
export type * from './database';
export * from './email-log/email-log.projection';
export type * from './email-log/email-notifications.table';
export * from './event-source';
export * from './migrate';
export * from './projection';
export type * from './queryable';
export * from './replay';
export * from './runner';
export * from './status';
export * from './tickets/tickets.projection';
export type * from './tickets/tickets.table';

import { emailLogProjection } from './email-log/email-log.projection';
import type { Projection } from './projection';
import { ticketsProjection } from './tickets/tickets.projection';

/** Every projection of the read side, by name. */
export const PROJECTIONS: readonly Projection[] = [ticketsProjection, emailLogProjection];

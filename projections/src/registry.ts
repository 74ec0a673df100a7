import { emailLogProjection } from './email-log/email-log.projection';
import { ticketsProjection } from './tickets/tickets.projection';

/** Every projection of the read side. */
export const PROJECTIONS = [ticketsProjection, emailLogProjection] as const;

export type ReadSideProjection = (typeof PROJECTIONS)[number];

/** 'tickets' | 'email-log': what read-your-writes waits for and what the replay command takes. */
export type ProjectionName = ReadSideProjection['name'];

/** The open database (`Database`: pool, kind, close). */
export const DATABASE = Symbol('DATABASE');
/** A kysely instance over the write side's tables (accounts, sessions, mail log, subscriptions). */
export const KYSELY = Symbol('KYSELY');

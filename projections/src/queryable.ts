/** What the read side needs of a database connection: a `pg` client or pool fits. */
export interface Queryable {
  query<R extends object = Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
}

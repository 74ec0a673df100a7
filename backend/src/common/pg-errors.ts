/** Whether a database error is a unique violation (23505) of the named constraint or unique index. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const pgError = error as { code?: unknown; constraint?: unknown } | null;
  return typeof pgError === 'object' && pgError !== null && pgError.code === '23505' && pgError.constraint === constraint;
}

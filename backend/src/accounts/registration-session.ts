import type { Session, SessionData } from 'express-session';

declare module 'express-session' {
  interface SessionData {
    /**
     * Accounts registered from this browser session: opening their verification link here proves that the
     * person verifying is the one who registered (kept across the login's session regeneration).
     */
    registeredAccountIds?: number[];
  }
}

/** How many registrations one session remembers (a person registers once; a few tries at most). */
const REMEMBERED = 5;

export function rememberRegistration(session: Session & Partial<SessionData>, accountId: number): void {
  session.registeredAccountIds = [...(session.registeredAccountIds ?? []).filter((id) => id !== accountId), accountId].slice(-REMEMBERED);
}

export function registeredInSession(session: (Session & Partial<SessionData>) | undefined): readonly number[] {
  const ids = session?.registeredAccountIds;
  return Array.isArray(ids) ? ids.filter((id): id is number => Number.isSafeInteger(id)) : [];
}

import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import type { Database } from '../src/database/database';

export type Agent = ReturnType<typeof request.agent>;

let address = 10;
/** A fresh client address per caller (X-Forwarded-For from loopback is trusted), so rate limits stay apart. */
export function nextAddress(): string {
  address += 1;
  return `203.0.113.${address % 250}`;
}

/** A browser session of the website: cookie jar, the CSRF header, its own address. */
export function browser(app: INestApplication, ip = nextAddress()): Agent {
  return request.agent(app.getHttpServer()).set('X-Requested-With', 'XMLHttpRequest').set('X-Forwarded-For', ip);
}

let counter = 0;
export function newCustomer(overrides: Record<string, unknown> = {}): {
  username: string;
  email: string;
  password: string;
} & Record<string, unknown> {
  counter += 1;
  const id = `${Date.now().toString(36)}${counter}`;
  return { username: `cust_${id}`, email: `cust.${id}@example.com`, password: 'correct horse 1', ...overrides };
}

/**
 * The newest email of a kind to an address, from the mail log. Account emails are sent after the answer (so
 * its time tells nothing about the address), through the email outbox: this waits a little for one to appear;
 * null if none does. `unlike`: a newer one than the email holding that text (a token of an earlier email) is
 * awaited, since the earlier one is in the log until the new one's send is done.
 */
export async function lastEmail(
  db: Database,
  to: string,
  kind: string,
  waitMs = 5000,
  unlike?: string,
): Promise<{ subject: string; text: string; html: string | null } | null> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const { rows } = await db.pool.query<{ subject: string; text_body: string; html_body: string | null }>(
      `SELECT subject, text_body, html_body FROM mail_messages WHERE lower(to_address) = lower($1) AND kind = $2 ORDER BY id DESC LIMIT 1`,
      [to, kind],
    );
    const row = rows[0];
    if (row && (unlike === undefined || !row.text_body.includes(unlike)))
      return { subject: row.subject, text: row.text_body, html: row.html_body };
    if (Date.now() >= deadline) return null;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export function tokenIn(text: string, pattern: RegExp): string {
  const match = pattern.exec(text);
  if (!match?.[1]) throw new Error(`No token in: ${text}`);
  return decodeURIComponent(match[1]);
}

export const VERIFY_LINK = /verify-email\?token=([A-Za-z0-9_%-]+)/;
export const RESET_LINK = /reset-password\?token=([A-Za-z0-9_%-]+)/;

/**
 * Rows the notification saga writes in the background (a ticket's emails and their outcome events) are left
 * out: they follow earlier requests, at a time of the saga's choosing, never the request a test is checking.
 */
const BACKGROUND_ROWS: Record<string, string> = {
  es_events: `WHERE stream_id NOT LIKE 'notifications-%'`,
  mail_messages: `WHERE kind NOT IN ('ticket-created', 'payment-received', 'status-update', 'resolved', 'staff-alert')`,
  notification_jobs: `WHERE kind NOT IN ('ticket-created', 'payment-received', 'status-update', 'resolved', 'staff-alert')`,
};

export async function count(db: Database, table: string): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} ${BACKGROUND_ROWS[table] ?? ''}`);
  return rows[0]!.n;
}

/** Registers and verifies a customer through the API, and leaves the agent logged in. */
export async function verifiedCustomer(
  app: INestApplication,
  db: Database,
  overrides: Record<string, unknown> = {},
): Promise<{ agent: Agent; customer: ReturnType<typeof newCustomer>; id: number }> {
  const customer = newCustomer(overrides);
  const agent = browser(app);
  await agent.post('/api/customer/register').send(customer).expect(201);
  const mail = await lastEmail(db, customer.email, 'account-verification');
  await agent
    .post('/api/customer/verify-email')
    .send({ token: tokenIn(mail!.text, VERIFY_LINK) })
    .expect(200);
  const login = await agent.post('/api/customer/login').send({ email: customer.username, password: customer.password }).expect(200);
  return { agent, customer, id: login.body.id as number };
}

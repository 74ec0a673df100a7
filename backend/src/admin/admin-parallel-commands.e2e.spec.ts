import { ticketStreamId } from '@ppr/contracts';
import type { PoolClient } from 'pg';
import { firstAdmin, loginAdmin } from '../../test/admin-helpers';
import { aSupportRequest } from '../../test/builders';
import { type Agent, browser } from '../../test/customer-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';

const ticketData = aSupportRequest();

/** How long the read side is held back in the test: far longer than a command that does not wait takes to answer. */
const HOLD_MS = 1500;

/**
 * Two admins send the same command at once: one appends the change, the other finds it made and changes
 * nothing. Both answer the ticket as it is after the change, which the second must wait for too: the read
 * side may not have applied the first one's event yet. The read side is held back by a row lock on the
 * tickets read table, which needs a second connection to the database: on PostgreSQL only.
 */
const onPostgres = process.env.DATABASE_URL ? describe : describe.skip;

onPostgres('the same admin command sent twice at once: both answers show the change', () => {
  let t: TestApp;
  let admin: Agent;
  let other: Agent;

  beforeAll(async () => {
    t = await createTestApp({ READ_YOUR_WRITES_TIMEOUT_MS: '20000' });
    const first = await firstAdmin(t.app);
    admin = first.agent;
    // The same admin in a second browser (another tab, another desk): sessions of their own.
    other = await loginAdmin(t.app, first.admin);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Holds the read side's write of the ticket's row until `release` (the projection waits on the lock). */
  async function holdRow(ticketId: number): Promise<{ release(): Promise<void> }> {
    const client: PoolClient = await t.db.pool.connect();
    await client.query('BEGIN');
    await client.query('SELECT id FROM tickets WHERE id = $1 FOR UPDATE', [ticketId]);
    let released = false;
    return {
      async release() {
        if (released) return;
        released = true;
        await client.query('COMMIT');
        client.release();
      },
    };
  }

  async function appended(ticketId: number, type: string): Promise<void> {
    for (let i = 0; i < 400; i++) {
      if ((await t.store.readStream(ticketStreamId(ticketId))).some((event) => event.type === type)) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`${type} was not appended to ticket ${ticketId}`);
  }

  it('a status change that found the same change made answers once the read side shows it', async () => {
    const id = (await browser(t.app).post('/api/support-request').send(ticketData).expect(201)).body.id as number;
    const held = await holdRow(id);
    const timer = setTimeout(() => void held.release(), HOLD_MS);
    try {
      const first = admin
        .patch(`/api/admin/tickets/${id}/status`)
        .send({ status: 'resolved' })
        .then((response) => response);
      await appended(id, 'TicketStatusChanged');
      // The second finds the ticket resolved in its events; the read table still says pending_payment.
      const second = await other.patch(`/api/admin/tickets/${id}/status`).send({ status: 'resolved' }).expect(200);
      expect(second.body.status).toBe('resolved');
      expect((await first).status).toBe(200);
      expect((await first).body.status).toBe('resolved');
    } finally {
      clearTimeout(timer);
      await held.release();
    }
    const changes = (await t.store.readStream(ticketStreamId(id))).filter((event) => event.type === 'TicketStatusChanged');
    expect(changes).toHaveLength(1);
  });
});

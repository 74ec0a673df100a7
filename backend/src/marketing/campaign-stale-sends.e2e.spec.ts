import type { CampaignStatus } from '@ppr/contracts';
import { firstAdmin, loginAdmin, type newAdmin } from '../../test/admin-helpers';
import { startTestSmtp, type TestSmtpServer, waitFor } from '../../test/smtp-server';
import { openTestApp, sharedTestDatabase, type TestApp } from '../../test/test-app';
import { type Database, openDatabase } from '../database/database';
import * as campaigns from './campaigns.repository';

const SUBJECT = 'Spring check-up';
// One address in mixed case: the mail log's key of its message is in lower case.
const LIST = ['Alice.Mixed@List.example', 'bob@list.example', 'carol@list.example', 'dave@list.example'].concat(
  ['erin', 'frank', 'grace', 'heidi', 'ivan'].map((name) => `${name}@list.example`),
);

/**
 * A campaign cancelled while a batch of it was in flight, whose process then died: the recipients that batch
 * had claimed stay 'sending', and since the campaign is no longer running, no run claims them again. The crash
 * is made on the stopped app's database: the claims, and the mail log as the process left it at different
 * moments of a send.
 */
describe('recipients a stopped process left sending in a cancelled campaign', () => {
  let database: Awaited<ReturnType<typeof sharedTestDatabase>>;
  let smtp: TestSmtpServer;
  let app: TestApp | undefined;
  let admin: ReturnType<typeof newAdmin>;
  let campaignId: number;

  const open = () =>
    openTestApp({
      ...database.env,
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Potomac PC Repair <news@potomacpc.example>',
      APP_BASE_URL: 'https://www.potomacpc.example',
      MARKETING_BATCH_PAUSE_MS: '0',
    });
  /** The database of the stopped app, as the next one will find it. */
  const offline = async <T>(config: TestApp['config'], work: (db: Database) => Promise<T>): Promise<T> => {
    const db = await openDatabase(config);
    try {
      return await work(db);
    } finally {
      await db.close();
    }
  };
  const recipients = async (db: Database, id: number) =>
    (
      await db.pool.query<{ position: number; state: string; error: string | null; mail_message_id: number | null }>(
        'SELECT position, state, error, mail_message_id FROM marketing_recipients WHERE campaign_id = $1 ORDER BY position',
        [id],
      )
    ).rows;
  const mailIds = async (db: Database, id: number): Promise<Map<number, number>> => {
    const { rows } = await db.pool.query<{ position: number; id: number }>(
      `SELECT r.position, m.id FROM marketing_recipients r JOIN mail_messages m ON m.idempotency_key = 'campaign:' || r.campaign_id || ':' || lower(r.email)
       WHERE r.campaign_id = $1`,
      [id],
    );
    return new Map(rows.map((row) => [row.position, row.id]));
  };

  beforeAll(async () => {
    database = await sharedTestDatabase('campaign_stale');
    smtp = await startTestSmtp();
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
    await database?.drop();
  });

  it('settles them from the mail log when the worker starts, so the status stops counting them as pending; a recent claim is left alone', async () => {
    // The first life sends the campaign for real: its mail log rows carry the keys the worker gives them.
    const first = await open();
    app = first;
    const session = await firstAdmin(first.app);
    admin = session.admin;
    const started = await session.agent
      .post('/api/admin/marketing-email')
      .send({ subject: SUBJECT, content: '<p>Book your spring check-up.</p>', emails: LIST })
      .expect(202);
    campaignId = started.body.campaignId as number;
    await waitFor(async () => {
      const status: CampaignStatus = (await session.agent.get('/api/admin/email-campaign-status').expect(200)).body;
      return status.state === 'completed' ? status : undefined;
    }, 60_000);
    const config = first.config;
    await first.close();
    app = undefined;
    const delivered = smtp.inbox.length;
    expect(delivered).toBe(LIST.length);

    const ids = await offline(config, async (db) => {
      const ids = await mailIds(db, campaignId);
      expect(ids.size).toBe(LIST.length);
      // The worker's key of a message is in lower case, the mixed-case address's too: the one the settling looks for.
      const key = await db.pool.query('SELECT idempotency_key FROM mail_messages WHERE id = $1', [ids.get(1)]);
      expect(key.rows).toEqual([{ idempotency_key: `campaign:${campaignId}:alice.mixed@list.example` }]);
      // Claimed by a batch that never recorded them, their claim expired: positions 1 to 5. The mail log as it was left:
      // 1 sent, 2 logged (a life without SMTP), 3 failed at the mail server, 4 in its SMTP exchange, 5 not yet in it.
      await db.pool.query(
        `UPDATE marketing_recipients SET state = 'sending', error = NULL, mail_message_id = NULL, batch = NULL,
                updated_at = now() - interval '1 hour', claimed_by = 'died', claimed_until = now() - interval '50 minutes'
         WHERE campaign_id = $1 AND position <= 5`,
        [campaignId],
      );
      await db.pool.query(`UPDATE mail_messages SET status = 'logged' WHERE id = $1`, [ids.get(2)]);
      await db.pool.query(`UPDATE mail_messages SET status = 'failed', error = '550 Mailbox unavailable', sent_at = NULL WHERE id = $1`, [
        ids.get(3),
      ]);
      await db.pool.query(`UPDATE mail_messages SET status = 'pending', sent_at = NULL WHERE id = $1`, [ids.get(4)]);
      await db.pool.query('DELETE FROM mail_messages WHERE id = ANY($1::bigint[])', [[ids.get(5), ids.get(8), ids.get(9)]]);
      // 9: claimed with that batch, then left out of it as unsubscribed (a batch claims before it filters).
      await db.pool.query(
        `UPDATE marketing_recipients SET state = 'sending', error = NULL, mail_message_id = NULL, batch = NULL,
                updated_at = now() - interval '1 hour', claimed_by = 'died', claimed_until = now() - interval '50 minutes'
         WHERE campaign_id = $1 AND position = 9`,
        [campaignId],
      );
      await db.pool.query(`UPDATE email_subscriptions SET subscribed = false WHERE lower(email) = 'ivan@list.example'`);
      // 6: claimed a minute ago, by a batch that another instance may still be sending after the cancel.
      await db.pool.query(
        `UPDATE marketing_recipients SET state = 'sending', error = NULL, mail_message_id = NULL, batch = NULL,
                updated_at = now() - interval '1 minute', claimed_by = 'elsewhere', claimed_until = now() + interval '9 minutes',
                claim_token = 4242
         WHERE campaign_id = $1 AND position = 6`,
        [campaignId],
      );
      await db.pool.query(`UPDATE mail_messages SET status = 'pending', sent_at = NULL WHERE id = $1`, [ids.get(6)]);
      // 7 was sent and recorded; 8 was still pending when the admin cancelled.
      await db.pool.query(
        `UPDATE marketing_recipients SET state = 'cancelled', error = 'Cancelled by admin', mail_message_id = NULL, batch = NULL
         WHERE campaign_id = $1 AND position = 8`,
        [campaignId],
      );
      const status = await campaigns.latestCampaignStatus(db.pool);
      expect(status).toMatchObject({ campaignId, state: 'completed', sent: 1, failed: 0, pending: 7, cancelled: 1 });
      return ids;
    });

    // The next life: its worker settles them as it starts.
    const second = await open();
    app = second;
    const agent = await loginAdmin(second.app, admin);
    const status = await waitFor(async () => {
      const now: CampaignStatus = (await agent.get('/api/admin/email-campaign-status').expect(200)).body;
      return now.pending === 1 ? now : undefined;
    });
    expect(status).toMatchObject({ campaignId, state: 'completed', total: 9, sent: 3, failed: 3, skipped: 1, pending: 1, cancelled: 1 });

    const { failed, interrupted, notSent } = campaigns.STALE_SEND_ERRORS;
    expect(await recipients(second.db, campaignId)).toEqual([
      { position: 1, state: 'sent', error: null, mail_message_id: ids.get(1) },
      { position: 2, state: 'sent', error: null, mail_message_id: ids.get(2) },
      { position: 3, state: 'failed', error: `${failed}550 Mailbox unavailable`, mail_message_id: ids.get(3) },
      { position: 4, state: 'failed', error: interrupted, mail_message_id: ids.get(4) },
      { position: 5, state: 'failed', error: notSent, mail_message_id: null },
      { position: 6, state: 'sending', error: null, mail_message_id: null },
      { position: 7, state: 'sent', error: null, mail_message_id: ids.get(7) },
      { position: 8, state: 'cancelled', error: 'Cancelled by admin', mail_message_id: null },
      { position: 9, state: 'skipped', error: null, mail_message_id: null },
    ]);
    expect(failed).toMatch(/^The sending process stopped before it recorded the outcome/);
    // Settling sends nothing: the campaign is over.
    expect(smtp.inbox.length).toBe(delivered);

    // The batch still in flight elsewhere records its recipient as usual, and the campaign has nobody pending.
    const batch: campaigns.ClaimedBatch = {
      key: 'elsewhere',
      claimToken: 4242,
      campaign: { id: campaignId, subject: SUBJECT, html: '', text: '', batchSize: 50, pauseMs: 0 },
      recipients: [{ position: 6, email: 'frank@list.example' }],
    };
    await campaigns.recordBatch(second.db.pool, batch, [{ position: 6, state: 'sent', error: null, mailMessageId: ids.get(6)! }]);
    const after: CampaignStatus = (await agent.get('/api/admin/email-campaign-status').expect(200)).body;
    expect(after).toMatchObject({ campaignId, state: 'completed', sent: 4, failed: 3, skipped: 1, pending: 0, cancelled: 1 });
    await second.close();
    app = undefined;
  }, 120_000);

  it("leaves a running campaign's claims to the run that resumes them, and settles each stale claim once, never over a batch's record", async () => {
    // Whatever became of the test before, its app is closed: this one works on the stopped app's database.
    await app?.close();
    app = undefined;
    const third = await open();
    const config = third.config;
    await third.close();
    await offline(config, async (db) => {
      const stale = `now() - interval '1 hour'`;
      const insert = async (state: string, recipients: number): Promise<number> => {
        const { rows } = await db.pool.query<{ id: number }>(
          `INSERT INTO marketing_campaigns (subject, html_body, text_body, content_bytes, batch_size, pause_ms, state, total, next_batch_at)
           VALUES ('Stale', '<p>x</p>', 'x', 8, 50, 0, $1, $2, now() + interval '1 day') RETURNING id`,
          [state, recipients],
        );
        const id = rows[0]!.id;
        await db.pool.query(
          `INSERT INTO marketing_recipients (campaign_id, position, email, state, updated_at, claimed_by, claimed_until)
           SELECT $1, n, 'stale' || n || '@list.example', 'sending', ${stale}, 'died', ${stale} FROM generate_series(1, $2::int) AS n`,
          [id, recipients],
        );
        return id;
      };
      const cancelled = await insert('completed', 40);
      const running = await insert('running', 3);

      // A batch records recipient 1 while the settling runs: the settling waits for its commit, then sees the
      // row is no longer 'sending' and leaves it as recorded. Two connections are needed: PostgreSQL only.
      let recorded: Promise<void> = Promise.resolve();
      let release = (): void => undefined;
      let batchPid = 0;
      if (db.kind === 'postgres') {
        const batch = await db.pool.connect();
        batchPid = (await batch.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
        await batch.query('BEGIN');
        await batch.query(`UPDATE marketing_recipients SET state = 'sent', error = NULL WHERE campaign_id = $1 AND position = 1`, [
          cancelled,
        ]);
        recorded = new Promise<void>((resolve) => (release = resolve)).then(async () => {
          await batch.query('COMMIT');
          batch.release();
        });
      }
      // Two instances settle at once; the batch commits once both wait on it, directly or through each other.
      const settling = Promise.all([campaigns.settleStaleSends(db.pool), campaigns.settleStaleSends(db.pool)]);
      if (db.kind === 'postgres') {
        try {
          // The connections waiting, directly or not, on the batch's.
          await waitFor(async () => {
            const { rows } = await db.pool.query<{ n: number }>(
              `WITH RECURSIVE waiting(pid) AS (
                 SELECT $1::int
                 UNION SELECT a.pid FROM pg_stat_activity AS a JOIN waiting AS w ON w.pid = ANY(pg_blocking_pids(a.pid))
               )
               SELECT count(*)::int - 1 AS n FROM waiting`,
              [batchPid],
            );
            return rows[0]!.n >= 2 ? true : undefined;
          });
        } finally {
          // Committed whatever happened, so that the connection goes back to the pool.
          release();
        }
      }
      const [one, two] = await settling;
      await recorded;

      const byPostgres = db.kind === 'postgres' ? 1 : 0;
      const settled = [...one, ...two];
      expect(settled.filter((entry) => entry.campaignId === running)).toEqual([]);
      const ofCancelled = settled.filter((entry) => entry.campaignId === cancelled);
      expect(ofCancelled.reduce((sum, entry) => sum + entry.sent, 0)).toBe(0);
      expect(ofCancelled.reduce((sum, entry) => sum + entry.failed, 0)).toBe(40 - byPostgres);
      const rows = await recipients(db, cancelled);
      expect(rows.filter((row) => row.state === 'failed' && row.error === campaigns.STALE_SEND_ERRORS.notSent)).toHaveLength(
        40 - byPostgres,
      );
      if (byPostgres) expect(rows[0]).toMatchObject({ position: 1, state: 'sent', error: null });
      // The running campaign's expired claims are the next claim's to resume (its mail log rows are delivered under).
      expect((await recipients(db, running)).map((row) => row.state)).toEqual(['sending', 'sending', 'sending']);
      expect(await campaigns.settleStaleSends(db.pool)).toEqual([]);
    });
  }, 120_000);
});

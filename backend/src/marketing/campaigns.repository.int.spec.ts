import { openReadSide, type ReadSide } from '../../test/read-side';
import { claimBatch, insertCampaign, type NewCampaign } from './campaigns.repository';

const campaign = (pauseMs: number): NewCampaign => ({
  subject: 'Spring offer',
  html: '<p>Offer</p>',
  text: 'Offer',
  bytes: 12,
  imagesRemoved: false,
  batchSize: 2,
  pauseMs,
  recipients: ['a@example.com', 'b@example.com', 'c@example.com'],
  invalid: [],
  invalidCount: 0,
  createdBy: 'admin',
});

/** What the outbox sender learns from a claim decides how soon it asks again: "nothing running" must say so. */
describe('claimBatch: the next batch, and when to ask again', () => {
  let side: ReadSide;

  beforeAll(async () => {
    side = await openReadSide();
  });
  afterAll(async () => {
    await side?.close();
  });

  it('with no campaign running: no batch, and no time to ask again (null, not 0: the sender would ask at once, forever)', async () => {
    const claimed = await claimBatch(side.db.pool, 'p1', side.db.kind);
    expect(claimed).toEqual({ batch: null, nextInMs: null });
  });

  it('a running campaign with a pause: a batch, then nothing due until the pause is over', async () => {
    const id = await insertCampaign(side.db.pool, campaign(60_000));
    expect(id).not.toBeNull();
    const first = await claimBatch(side.db.pool, 'p1', side.db.kind);
    expect(first.batch?.recipients.map((r) => r.email)).toEqual(['a@example.com', 'b@example.com']);
    expect(first.nextInMs).toBe(60_000);
    const second = await claimBatch(side.db.pool, 'p2', side.db.kind);
    expect(second.batch).toBeNull();
    expect(second.nextInMs).toBeGreaterThan(50_000);
    expect(second.nextInMs).toBeLessThanOrEqual(60_000);
  });
});

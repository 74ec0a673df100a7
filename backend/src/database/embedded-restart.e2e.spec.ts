import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createApp } from '../app';
import { loadConfig } from '../config/config';
import { EmbeddedPostgres } from './embedded-postgres';

describe('the embedded default (no configuration)', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'ppr-data-'));
  });
  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  const supportRequest = {
    businessName: 'Rockville Law Group',
    contactName: 'Sam Lee',
    email: 'sam@rockvillelaw.example',
    phone: '301-555-0110',
    serviceCategory: 'storage',
  };

  const start = () =>
    createApp(loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'warn' }), { serveSpa: false, logger: false });

  it('keeps tickets across a restart', async () => {
    const first = await start();
    const created = await request(first.getHttpServer())
      .post('/api/support-request')
      .set('X-Requested-With', 'XMLHttpRequest')
      .send({ ...supportRequest, issueDescription: 'The nightly backup to the NAS has failed for a week.' })
      .expect(201);
    // The guest's browser session: sessions are stored in the database, so it outlives the restart too.
    const cookie = created.get('Set-Cookie') ?? [];
    await first.close();

    const second = await start();
    try {
      const summary = await request(second.getHttpServer())
        .get(`/api/ticket/${created.body.id}`)
        .set('Cookie', cookie)
        .expect(200);
      expect(summary.body).toMatchObject({ id: created.body.id, serviceCategory: 'storage', paymentStatus: 'pending' });
      // Ticket numbers continue after a restart instead of starting over.
      const next = await request(second.getHttpServer())
        .post('/api/support-request')
        .set('X-Requested-With', 'XMLHttpRequest')
        .send({ ...supportRequest, issueDescription: 'A second problem: the scanner stopped saving to the share.' })
        .expect(201);
      expect(next.body.id).toBeGreaterThan(created.body.id);
    } finally {
      await second.close();
    }
  });

  it('refuses a second process on the same data folder, naming the way out', async () => {
    const owner = await EmbeddedPostgres.start({ dataDir });
    try {
      // The lock names a live process other than this one.
      const { writeFileSync } = await import('node:fs');
      writeFileSync(join(dataDir, 'pglite.lock'), String(process.ppid));
      await expect(EmbeddedPostgres.start({ dataDir })).rejects.toThrow(/in use by process .*DATABASE_URL/s);
    } finally {
      await owner.stop();
    }
  });
});

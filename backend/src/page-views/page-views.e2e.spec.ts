import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { firstAdmin } from '../../test/admin-helpers';
import { browser, nextAddress } from '../../test/customer-helpers';
import { createSiteApp, type SiteApp } from '../../test/site-app';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { UsageError } from '../cli/cli-main';
import { formatReport, parseArgs } from '../cli/page-views';
import { PAGE_VIEW_LIMIT_PER_HOUR } from './page-views.controller';
import { isoDay } from './page-views.service';

/** A built frontend reduced to what the page-view counter reads: its route table. */
function writeDist(dir: string): void {
  const files: Record<string, string> = {
    'index.html': '<html><body>home</body></html>',
    'spa.html': '<html><body><div id="root"></div></body></html>',
    '404.html': '<html><body>404 Page Not Found</body></html>',
    'routes.json': JSON.stringify({
      prerendered: ['/', '/services', '/arlington/services'],
      clientRoutes: ['/support-request', '/ticket/:id', '/confirmation/:ticketId', '/admin', '/admin/dashboard'],
    }),
  };
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
}

describe('page views', () => {
  let site: SiteApp;
  let db: Database;
  let dir: string;
  let admin: Awaited<ReturnType<typeof firstAdmin>>['agent'];
  const today = isoDay(new Date());

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'page-views-dist-'));
    writeDist(dir);
    site = await createSiteApp(dir);
    db = site.app.get<Database>(DATABASE);
  });
  afterAll(async () => {
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function counts(): Promise<Record<string, number>> {
    const { rows } = await db.pool.query<{ path: string; views: number }>('SELECT path, views FROM page_views WHERE day = $1', [today]);
    return Object.fromEntries(rows.map((row) => [row.path, Number(row.views)]));
  }

  const view = (pathname: unknown, ip = nextAddress()) => browser(site.app, ip).post('/api/page-views').send({ path: pathname });

  it('counts a view under the route it matches, with ids, queries and case folded away', async () => {
    await view('/services').expect(204);
    await view('/Services/?utm_source=mail#top').expect(204);
    await view('/ticket/123').expect(204);
    await view('/ticket/456').expect(204);
    await view('/confirmation/77').expect(204);
    const now = await counts();
    expect(now['/services']).toBe(2);
    expect(now['/ticket/:id']).toBe(2);
    expect(now['/confirmation/:ticketId']).toBe(1);
    expect(Object.keys(now).some((key) => /\d/.test(key))).toBe(false);
  });

  it('collapses unknown and odd paths into (other), never storing them', async () => {
    const before = (await counts())['(other)'] ?? 0;
    await view('/no-such-page').expect(204);
    await view('/reset?email=pat@example.com').expect(204);
    await view(`/${'x'.repeat(1500)}`).expect(204);
    await view('/%70at%40example.com').expect(204);
    const now = await counts();
    expect(now['(other)']).toBe(before + 4);
    expect(Object.keys(now).every((key) => key.length <= 200 && !key.includes('@') && !key.includes('%'))).toBe(true);
  });

  it('does not count the admin portal or the API', async () => {
    const before = await counts();
    await view('/admin').expect(204);
    await view('/admin/dashboard').expect(204);
    await view('/api/health').expect(204);
    expect(await counts()).toEqual(before);
  });

  it('stores no personal data: the table has the day, the path and a count only', async () => {
    const { rows } = await db.pool.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'page_views' AND table_schema = current_schema() ORDER BY column_name`,
    );
    expect(rows.map((row) => row.column_name)).toEqual(['day', 'path', 'views']);
  });

  it('refuses bad bodies with a 400 and a cross-site or headerless post with a 403, writing nothing', async () => {
    const before = await counts();
    for (const body of [{}, { path: 'services' }, { path: 42 }, { path: '/services', extra: 1 }]) {
      const response = await browser(site.app).post('/api/page-views').send(body).expect(400);
      expect(typeof response.body.message).toBe('string');
    }
    const long = await browser(site.app)
      .post('/api/page-views')
      .send({ path: `/${'a'.repeat(3000)}` })
      .expect(400);
    expect(long.body.message).toBe('A path must be at most 2000 characters');
    await request(site.app.getHttpServer()).post('/api/page-views').send({ path: '/services' }).expect(403);
    await browser(site.app).post('/api/page-views').set('Origin', 'https://evil.example').send({ path: '/services' }).expect(403);
    expect(await counts()).toEqual(before);
  });

  it('rate-limits each address: past the hourly limit a 429 with Retry-After, and nothing counted', async () => {
    const ip = nextAddress();
    for (let i = 0; i < PAGE_VIEW_LIMIT_PER_HOUR; i += 1) await view('/arlington/services', ip).expect(204);
    const counted = (await counts())['/arlington/services'];
    const refused = await view('/arlington/services', ip).expect(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect((await counts())['/arlington/services']).toBe(counted);
    // Another address is not affected.
    await view('/arlington/services').expect(204);
  });

  it('GET /api/admin/page-views: admins only, counts per path and day and totals', async () => {
    await browser(site.app).get('/api/admin/page-views').expect(401);
    const { agent } = await firstAdmin(site.app);
    admin = agent;
    const report = await agent.get(`/api/admin/page-views?from=${today}&to=${today}`).expect(200);
    expect(report.body.from).toBe(today);
    expect(report.body.days).toEqual(expect.arrayContaining([{ day: today, path: '/ticket/:id', views: 2 }]));
    expect(report.body.totals).toEqual(expect.arrayContaining([{ path: '/services', views: 2 }]));
    const defaults = await agent.get('/api/admin/page-views').expect(200);
    expect(defaults.body.to).toBe(today);
    expect(defaults.body.totals).toEqual(report.body.totals);
    const empty = await agent.get('/api/admin/page-views?from=2020-01-01&to=2020-01-31').expect(200);
    expect(empty.body).toEqual({ from: '2020-01-01', to: '2020-01-31', days: [], totals: [] });
  });

  it('GET /api/admin/page-views refuses bad ranges with a 400', async () => {
    for (const query of ['from=yesterday', 'to=2026-02-30', 'from=2026-03-01&to=2026-02-01', 'from=2020-01-01&to=2026-01-01', 'page=2']) {
      const response = await admin.get(`/api/admin/page-views?${query}`).expect(400);
      expect(typeof response.body.message).toBe('string');
    }
  });

  it('GET /api/admin/page-views refuses days outside 2000-01-01..9999-12-31 with a 400 naming the field, never a 500', async () => {
    const outside = (field: string) => ({ path: field, message: `"${field}" must be a day from 2000-01-01 to 9999-12-31` });
    const cases: [string, string[]][] = [
      ['to=0001-01-01', ['to']],
      ['to=0000-01-01', ['to']],
      ['from=0000-01-01&to=0000-01-02', ['from', 'to']],
      ['from=1999-12-31&to=2000-01-10', ['from']],
      ['to=1999-12-31', ['to']],
    ];
    for (const [query, fields] of cases) {
      const response = await admin.get(`/api/admin/page-views?${query}`);
      const errors = fields.map(outside);
      expect({ query, status: response.status, body: response.body }).toEqual({
        query,
        status: 400,
        body: { message: errors.map((error) => error.message).join('; '), errors },
      });
    }
    // A date that does not exist is still refused as badly written, not as out of range.
    const invalid = await admin.get('/api/admin/page-views?to=0000-02-30').expect(400);
    expect(invalid.body.message).toBe('Dates are written YYYY-MM-DD');
  });

  it('GET /api/admin/page-views: a default start never reaches back before 2000-01-01', async () => {
    for (const to of ['2000-01-01', '2000-01-29']) {
      const response = await admin.get(`/api/admin/page-views?to=${to}`).expect(200);
      expect(response.body).toEqual({ from: '2000-01-01', to, days: [], totals: [] });
    }
    const full = await admin.get('/api/admin/page-views?to=2000-01-30').expect(200);
    expect(full.body.from).toBe('2000-01-01');
    const later = await admin.get('/api/admin/page-views?to=2000-02-29').expect(200);
    expect(later.body.from).toBe('2000-01-31');
    const last = await admin.get('/api/admin/page-views?from=9999-12-01&to=9999-12-31').expect(200);
    expect(last.body).toEqual({ from: '9999-12-01', to: '9999-12-31', days: [], totals: [] });
  });
});

describe('page-views CLI arguments and report', () => {
  it('parses dates and refuses anything else', () => {
    expect(parseArgs(['--from', '2026-01-01', '--to', '2026-01-31', '--by-day'])).toEqual({
      from: '2026-01-01',
      to: '2026-01-31',
      byDay: true,
    });
    expect(parseArgs([])).toEqual({ byDay: false });
    expect(parseArgs(['--help'])).toBe('help');
    expect(() => parseArgs(['--from'])).toThrow(UsageError);
    expect(() => parseArgs(['--from', '01/02/2026'])).toThrow(UsageError);
    expect(() => parseArgs(['--verbose'])).toThrow(UsageError);
    expect(() => parseArgs(['--to', '0000-12-31'])).toThrow(new UsageError('"to" must be a day from 2000-01-01 to 9999-12-31'));
  });

  it('prints totals, or per day', () => {
    const report = {
      from: '2026-01-01',
      to: '2026-01-02',
      days: [
        { day: '2026-01-02', path: '/', views: 3 },
        { day: '2026-01-01', path: '/services', views: 1 },
      ],
      totals: [
        { path: '/', views: 3 },
        { path: '/services', views: 1 },
      ],
    };
    const totals = formatReport(report, false);
    expect(totals).toHaveLength(4);
    expect(totals[0]).toBe('Page views 2026-01-01 to 2026-01-02');
    expect(totals[1]).toMatch(/^\/ +3$/);
    expect(totals[2]).toMatch(/^\/services +1$/);
    expect(totals[3]).toBe('Total: 4');
    expect(formatReport(report, true)[1]).toMatch(/^2026-01-02 {2}\/ +3$/);
    expect(formatReport({ ...report, days: [], totals: [] }, false)).toEqual([
      'Page views 2026-01-01 to 2026-01-02',
      'No page views in this range.',
    ]);
  });
});

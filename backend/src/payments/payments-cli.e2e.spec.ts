import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import request from 'supertest';
import { aSupportRequest } from '../../test/builders';
import { createTestApp } from '../../test/test-app';
import { UsageError } from '../cli/cli-main';
import { runPaymentsCli } from '../cli/payments';
import { loadConfig } from '../config/config';
import { PAYMENT_GATEWAY } from './payments.tokens';
import type { SimulatedPaymentGateway } from './simulated-payment-gateway';

const ticketData = aSupportRequest();

/** `npm run payments -- reconcile` finds a payment whose webhook was lost, records it and prints it. */
describe('npm run payments -- reconcile', () => {
  const url = process.env.DATABASE_URL;
  let dataDir: string;
  let schema: string;
  // The same storage for the app and for the command: a folder (embedded) or a schema (PostgreSQL).
  const storage = (): Record<string, string> =>
    url ? { DATABASE_URL: url, DATABASE_SCHEMA: schema, DATABASE_POOL_SIZE: '5' } : { DATA_DIR: dataDir };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'ppr-payments-cli-'));
    schema = `test_cli_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
    if (url) {
      const admin = new Pool({ connectionString: url, max: 1 });
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
  });

  it('records the lost payment and prints it; a second run finds nothing', async () => {
    const t = await createTestApp(storage());
    let ticketId: number;
    let paymentIntentId: string;
    try {
      const agent = request.agent(t.app.getHttpServer()).set('X-Requested-With', 'XMLHttpRequest');
      ticketId = (await agent.post('/api/support-request').send(ticketData).expect(201)).body.id as number;
      const setup = (await agent.post('/api/create-payment-intent').send({ ticketId }).expect(200)).body;
      paymentIntentId = setup.paymentIntentId as string;
      // The webhook is lost: the gateway took the payment, the ticket does not know.
      t.app.get<SimulatedPaymentGateway>(PAYMENT_GATEWAY).deliverEventsTo(async () => undefined);
      await agent
        .post('/api/payments/simulated/confirm')
        .send({ clientSecret: setup.clientSecret, cardNumber: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '123' })
        .expect(200, { status: 'succeeded', paymentIntentId });
      expect((await agent.get(`/api/ticket/${ticketId}`).expect(200)).body.paymentStatus).toBe('pending');
    } finally {
      await t.app.close();
    }

    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'fatal', ...storage() });
    const lines: string[] = [];
    expect(await runPaymentsCli(['reconcile', '--after-minutes', '0'], config, (line) => lines.push(line))).toBe(0);
    expect(lines.join('\n')).toMatch(new RegExp(`${paymentIntentId}\\s+ticket ${ticketId}\\s+recorded`));
    expect(lines.join('\n')).toContain('Checked 1: 1 recorded.');

    const again: string[] = [];
    expect(await runPaymentsCli(['reconcile', '--after-minutes', '0'], config, (line) => again.push(line))).toBe(0);
    expect(again).toEqual(['Nothing to reconcile: every intent is settled or younger than the delay.']);

    const reopened = await createTestApp(storage());
    try {
      const payments = (await reopened.store.readStream(`ticket-${ticketId}`)).filter((event) => event.type === 'TicketPaymentReceived');
      expect(payments.map((event) => event.data)).toEqual([{ ticketId, paymentIntentId, amountCents: 4900, currency: 'usd' }]);
    } finally {
      await reopened.app.close();
    }
  });

  it('refuses unknown commands and arguments with its usage', async () => {
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: 'memory' });
    await expect(runPaymentsCli(['refund-everything'], config, () => undefined)).rejects.toBeInstanceOf(UsageError);
    await expect(runPaymentsCli(['reconcile', '--after-minutes', 'soon'], config, () => undefined)).rejects.toBeInstanceOf(UsageError);
    const help: string[] = [];
    expect(await runPaymentsCli(['--help'], config, (line) => help.push(line))).toBe(0);
    expect(help.join('\n')).toContain('npm run payments -- <command>');
  });
});

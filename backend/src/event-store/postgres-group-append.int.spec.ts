import { randomUUID } from 'node:crypto';
import { openTestStore, testEvent, testMetadata as metadata, type TestStore, visible } from '../../test/event-store-fixtures';
import { type AppendResult, comparePositions, DuplicateEventError, type NewEvent, WrongExpectedRevisionError } from './event-store.port';
import type { PostgresEventStore } from './postgres-event-store';

/**
 * Concurrent single-event appends share a transaction (es_append_group), each with its own outcome. On a
 * real PostgreSQL when DATABASE_URL is set, else on the embedded one.
 */
jest.setTimeout(120_000);

const event = (type: string, data: Record<string, unknown> = {}): NewEvent => ({ type, data, metadata: metadata() });

describe(`grouped single-event appends on ${process.env.DATABASE_URL ? 'PostgreSQL' : 'the embedded database'}`, () => {
  let opened: TestStore;
  let store: PostgresEventStore;

  beforeAll(async () => {
    opened = await openTestStore('es_grouped', { poolSize: 10, pollIntervalMs: 200 });
    ({ store } = opened);
  });
  afterAll(async () => {
    await opened?.close();
  });

  /** Runs `appends` at once and answers how many statements wrote them. */
  async function together<T>(appends: (() => Promise<T>)[]): Promise<{ outcomes: PromiseSettledResult<T>[]; statements: number }> {
    const before = store.stats.singleAppendStatements;
    const outcomes = await Promise.allSettled(appends.map((append) => append()));
    return { outcomes, statements: store.stats.singleAppendStatements - before };
  }

  it('writes appends that come together in fewer statements, each at a revision of its own', async () => {
    const run = randomUUID().slice(0, 8);
    await store.append(`g-${run}-0`, [event('Opened')], 'no_stream');
    const { outcomes, statements } = await together(
      Array.from({ length: 24 }, (_, i) => () => store.append(`g-${run}-${i % 6}`, [event('Noted', { i })], 'any')),
    );
    expect(outcomes.every((outcome) => outcome.status === 'fulfilled')).toBe(true);
    expect(statements).toBeLessThan(24);
    const results = outcomes.map((outcome) => (outcome as PromiseFulfilledResult<AppendResult>).value);
    for (let stream = 0; stream < 6; stream++) {
      const stored = await store.readStream(`g-${run}-${stream}`);
      // Every append of the stream is there once, the revisions without a gap, each as its append answered.
      const noted = stored.filter((e) => e.type === 'Noted');
      expect(noted.map((e) => (e.data as { i: number }).i).sort((a, b) => a - b)).toEqual([stream, stream + 6, stream + 12, stream + 18]);
      expect(stored.map((e) => e.revision)).toEqual(stored.map((_, index) => index));
      for (const e of noted) {
        const answered = results[(e.data as { i: number }).i]!;
        expect(answered.nextExpectedRevision).toBe(e.revision);
        expect(answered.position).toEqual(e.position);
      }
      // Within a stream the global order is the revision order.
      const positions = stored.map((e) => e.position);
      expect([...positions].sort(comparePositions)).toEqual(positions);
    }
  });

  it('fails only the append whose expected revision does not hold, and tells the stream revision', async () => {
    const run = randomUUID().slice(0, 8);
    await store.append(`w-${run}-a`, [event('Opened')], 'no_stream');
    await store.append(`w-${run}-a`, [event('Noted')], 0);
    const appends = [
      () => store.append(`w-${run}-x`, [event('Opened')], 'no_stream'),
      () => store.append(`w-${run}-y`, [event('Opened')], 'no_stream'),
      () => store.append(`w-${run}-a`, [event('Wrong')], 0),
      () => store.append(`w-${run}-b`, [event('Wrong')], 'stream_exists'),
      () => store.append(`w-${run}-a`, [event('Right')], 1),
      () => store.append(`w-${run}-a`, [event('Wrong')], 'no_stream'),
      () => store.append(`w-${run}-c`, [event('Wrong')], 3),
      () => store.append(`w-${run}-z`, [event('Opened')], 'no_stream'),
    ];
    const { outcomes, statements } = await together(appends);
    expect(statements).toBeLessThan(appends.length);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
    ]);
    const errors = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
    errors.forEach((error) => expect(error).toBeInstanceOf(WrongExpectedRevisionError));
    expect(errors.map((error) => (error as WrongExpectedRevisionError).actual)).toEqual([1, -1, 2, -1]);
    expect((await store.readStream(`w-${run}-a`)).map((e) => e.type)).toEqual(['Opened', 'Noted', 'Right']);
    expect(await store.readStream(`w-${run}-b`)).toEqual([]);
    expect(await store.readStream(`w-${run}-c`)).toEqual([]);
  });

  it('lets one of two appends that both start a stream through', async () => {
    const stream = `race-${randomUUID()}`;
    const { outcomes } = await together(
      Array.from({ length: 6 }, (_, i) => () => store.append(stream, [event('Opened', { i })], 'no_stream')),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const stored = await store.readStream(stream);
    expect(stored).toHaveLength(1);
  });

  it('fails only the append whose event id is stored already; the others are written', async () => {
    const run = randomUUID().slice(0, 8);
    const stored = testEvent('Opened');
    await store.append(`d-${run}-first`, [stored], 'no_stream');
    const appends = Array.from(
      { length: 8 },
      (_, i) => () => store.append(`d-${run}-${i}`, [i === 5 ? { ...stored, metadata: metadata() } : event('Opened')], 'no_stream'),
    );
    const { outcomes } = await together(appends);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(appends.map((_, i) => (i === 5 ? 'rejected' : 'fulfilled')));
    expect((outcomes[5] as PromiseRejectedResult).reason).toBeInstanceOf(DuplicateEventError);
    for (let i = 0; i < 8; i++) expect(await store.readStream(`d-${run}-${i}`)).toHaveLength(i === 5 ? 0 : 1);
  });

  it('answers the positions the subscribers read the events at', async () => {
    const run = randomUUID().slice(0, 8);
    const { outcomes } = await together(
      Array.from({ length: 12 }, (_, i) => () => store.append(`p-${run}-${i}`, [event('Opened', { i })], 'no_stream')),
    );
    const positions = outcomes.map((outcome) => (outcome as PromiseFulfilledResult<AppendResult>).value.position);
    const sorted = [...positions].sort(comparePositions);
    const first = sorted[0]!;
    // Readers see a commit once no older transaction in the database is open (another test file's may be).
    await visible(store, sorted[sorted.length - 1]!);
    const read = (await store.readAll({ commit: first.commit, prepare: first.prepare - 1n }, 100)).filter((e) =>
      e.streamId.startsWith(`p-${run}-`),
    );
    expect(read.map((e) => e.position)).toEqual([...positions].sort(comparePositions));
    read.forEach((e) => expect(e.position).toEqual(positions[(e.data as { i: number }).i]));
  });
});

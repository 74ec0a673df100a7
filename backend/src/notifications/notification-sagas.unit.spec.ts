import { type NotificationJob, type NotificationJobs } from './notification-jobs';
import { NotificationSagas } from './notification-sagas';
import type { AttemptResult, NotificationSender } from './notification-sender';
import { SingleProcessSagaLock } from './sagas/saga-lock';
import type { TicketEmailsSaga } from './sagas/ticket-emails.saga';

function job(key: string): NotificationJob {
  return {
    key,
    eventId: '00000000-0000-4000-8000-000000000000',
    kind: 'ticket-created',
    ticketId: 1,
    userId: null,
    to: 'customer@example.com',
    subject: 'Subject',
    html: '<p>Hi</p>',
    text: 'Hi',
    messageId: `<${key}@example.com>`,
    customer: true,
    attempts: 0,
    appendedAt: new Date(),
    pendingMailId: 1,
  };
}

/** A promise with its resolve, for steps the test releases. */
function gate<T>(): { promise: Promise<T>; open: (value: T) => void } {
  let open: (value: T) => void = () => undefined;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}

/** Time for the worker to do what it would do now (for checks that something did not happen). */
const settle = (ms = 30): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `check` until it passes (the worker gets there), or fails with its last error after 5 s. */
async function eventually(check: () => void): Promise<void> {
  const deadline = Date.now() + 5000;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

const keys = (h: Harness): string[] => h.attempts.map((a) => a.key);

interface Harness {
  readonly sagas: NotificationSagas;
  /** What `due` answers next, in order (an answer can be held until the test opens it). */
  readonly answers: { jobs: NotificationJob[]; held?: Promise<void> }[];
  readonly dueCalls: { exclude: readonly string[] }[];
  /** The sender's attempts, each ended when the test says (true: sent). */
  readonly attempts: { key: string; end: (success: boolean) => void }[];
  handOver(jobs: NotificationJob[]): void;
}

/**
 * The worker with a saga, a table and a sender of the test's own: the saga hands jobs over when told, the
 * table answers `due` with what the test queues (and can hold an answer), the sender's attempts end when
 * the test says.
 */
function harness(): Harness {
  let handOver: (jobs: readonly NotificationJob[]) => void = () => undefined;
  const saga = {
    prepare: () => Promise.resolve(),
    follow: (signal: AbortSignal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true })),
  };
  const answers: Harness['answers'] = [];
  const dueCalls: { exclude: readonly string[] }[] = [];
  const jobs = {
    async due(_limit: number, exclude: readonly string[]) {
      dueCalls.push({ exclude: [...exclude] });
      const answer = answers.shift() ?? { jobs: [] };
      await answer.held;
      return { jobs: answer.jobs, nextInMs: null };
    },
  };
  const attempts: Harness['attempts'] = [];
  const sender = {
    mailTransport: 'log',
    attempt(attempted: NotificationJob): Promise<AttemptResult> {
      const ended = gate<boolean>();
      attempts.push({ key: attempted.key, end: ended.open });
      return ended.promise.then((success) => ({ success, error: success ? null : 'refused', notificationId: null, position: null }));
    },
  };
  const sagas = new NotificationSagas(
    (onJobs) => {
      handOver = onJobs;
      return saga as unknown as TicketEmailsSaga;
    },
    jobs as unknown as NotificationJobs,
    sender as unknown as NotificationSender,
    new SingleProcessSagaLock(),
    { maxAttempts: 3, baseDelayMs: 10 },
  );
  const running: Harness = { sagas, answers, dueCalls, attempts, handOver: (handed: NotificationJob[]) => handOver(handed) };
  started.push(running);
  return running;
}

const started: Harness[] = [];

describe('NotificationSagas (the outbox worker)', () => {
  afterEach(async () => {
    // A failed test leaves its worker running: end its sends and stop it.
    for (const h of started.splice(0)) {
      h.attempts.forEach((a) => a.end(true));
      await h.sagas.stop();
    }
  });

  it('sends jobs handed over by the saga without asking the table again', async () => {
    const h = harness();
    h.sagas.start();
    await eventually(() => expect(h.dueCalls).toHaveLength(1)); // the first look at the table, at the start
    h.handOver([job('a'), job('b')]);
    await eventually(() => expect(keys(h)).toEqual(['a', 'b']));
    h.attempts.forEach((a) => a.end(true));
    h.handOver([job('c')]);
    await eventually(() => expect(keys(h)).toEqual(['a', 'b', 'c']));
    await settle();
    expect(h.dueCalls).toHaveLength(1);
  });

  it('keeps at most 1,000 handed-over jobs in memory while it is full; the rest are left to the table', async () => {
    const h = harness();
    h.sagas.start();
    await eventually(() => expect(h.dueCalls).toHaveLength(1));
    h.handOver(Array.from({ length: 32 }, (_, i) => job(`busy-${i}`)));
    await eventually(() => expect(h.attempts).toHaveLength(32)); // full: the mail server is slow
    h.handOver(Array.from({ length: 1500 }, (_, i) => job(`queued-${i}`)));
    expect((h.sagas as unknown as { handed: unknown[] }).handed).toHaveLength(1000);
    h.attempts[0]!.end(true);
    // Room made while full: the worker asks the table, where every job is.
    await eventually(() => expect(h.dueCalls).toHaveLength(2));
  });

  it('never sends a job twice when the table answers with one handed over, being sent or just finished', async () => {
    const h = harness();
    h.sagas.start();
    await eventually(() => expect(h.dueCalls).toHaveLength(1));
    // A send fails: the worker asks the table again, and its answer is held while the saga hands `x` over.
    h.handOver([job('f')]);
    await eventually(() => expect(keys(h)).toEqual(['f']));
    const held = gate<void>();
    h.answers.push({ jobs: [job('x')], held: held.promise });
    h.attempts[0]!.end(false);
    await eventually(() => expect(h.dueCalls).toHaveLength(2));
    h.handOver([job('x')]);
    await settle();
    // `x` is not started while the question is out: the worker is waiting for the answer.
    expect(keys(h)).toEqual(['f']);
    held.open();
    // The answer had `x` (it was committed before the question): sent once, the handed copy left out.
    await eventually(() => expect(keys(h)).toEqual(['f', 'x']));
    await settle();
    expect(keys(h)).toEqual(['f', 'x']);

    // An answer asked while `x` was being sent, that comes after it finished: left out too.
    const late = gate<void>();
    h.answers.push({ jobs: [job('x')], held: late.promise });
    h.handOver([job('y')]);
    await eventually(() => expect(keys(h)).toContain('y'));
    h.attempts.find((a) => a.key === 'y')!.end(false); // a failure makes the worker ask the table
    await eventually(() => expect(h.dueCalls).toHaveLength(3));
    h.attempts.find((a) => a.key === 'x')!.end(true);
    await settle();
    late.open();
    await settle();
    expect(keys(h).filter((key) => key === 'x')).toHaveLength(1);

    // A job that failed is sent again when the table, asked after the failure, says it is due.
    h.answers.push({ jobs: [job('y')] });
    h.handOver([job('z')]);
    await eventually(() => expect(keys(h)).toContain('z'));
    h.attempts.find((a) => a.key === 'z')!.end(false);
    await eventually(() => expect(keys(h).filter((key) => key === 'y')).toHaveLength(2));
  });
});

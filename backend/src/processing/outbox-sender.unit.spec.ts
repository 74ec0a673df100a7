import { type Claim, type ClaimedJob, type Delivery, type OutboxKind, OutboxSender } from './outbox-sender';

interface Job extends ClaimedJob {
  readonly n: number;
}

const quiet = { log: () => undefined, warn: () => undefined, error: () => undefined };
const connectionLost = (): Error => Object.assign(new Error('Connection terminated unexpectedly'), {});
const tick = (ms = 5): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await tick();
  }
}

/** An outbox in memory: jobs to claim, what was delivered and recorded, and faults to switch on. */
class FakeOutbox implements OutboxKind<Job, string> {
  readonly name = 'fake';
  concurrency = 3;
  pending: Job[] = [];
  delivered: number[] = [];
  recorded: number[] = [];
  released: number[] = [];
  claims = 0;
  inFlight = 0;
  maxInFlight = 0;
  /** While set, claims and records fail as with the database away. */
  down = false;
  /** Deliveries wait for this before they end. */
  gate: Promise<void> = Promise.resolve();
  private token = 0;

  add(...ns: number[]): void {
    for (const n of ns) this.pending.push(this.job(n));
  }

  job(n: number): Job {
    return { key: `job-${n}`, claimToken: ++this.token, n };
  }

  claim(_claimant: string, limit: number): Promise<Claim<Job>> {
    this.claims += 1;
    if (this.down) return Promise.reject(connectionLost());
    return Promise.resolve({ jobs: this.pending.splice(0, limit), nextInMs: null });
  }

  async deliver(job: Job): Promise<Delivery<string>> {
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    await this.gate;
    this.inFlight -= 1;
    this.delivered.push(job.n);
    return { sent: true, outcome: `sent ${job.n}` };
  }

  record(job: Job): Promise<void> {
    if (this.down) return Promise.reject(connectionLost());
    this.recorded.push(job.n);
    return Promise.resolve();
  }

  release(_claimant: string, jobs: readonly Job[]): Promise<void> {
    this.released.push(...jobs.map((job) => job.n));
    return Promise.resolve();
  }
}

describe('OutboxSender: claim, deliver, record under the claim', () => {
  let stop: AbortController;
  let running: Promise<void>;
  const start = (sender: OutboxSender<Job, string>): void => {
    stop = new AbortController();
    running = sender.run(stop.signal, { hold: (name) => Promise.resolve({ name, signal: stop.signal, valid: () => true }) });
  };
  afterEach(async () => {
    stop?.abort();
    await running;
  });

  it('sends what it claims, at most `concurrency` at once, and records each outcome', async () => {
    const outbox = new FakeOutbox();
    outbox.add(1, 2, 3, 4, 5, 6, 7);
    let open!: () => void;
    outbox.gate = new Promise((resolve) => (open = resolve));
    const sender = new OutboxSender(outbox, quiet);
    start(sender);
    await until(() => outbox.inFlight === 3);
    await tick(20);
    expect(outbox.maxInFlight).toBe(3);
    open();
    await until(() => outbox.recorded.length === 7);
    expect([...outbox.delivered].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(outbox.maxInFlight).toBe(3);
  });

  it('sends jobs handed over after a commit without claiming them from the table', async () => {
    const outbox = new FakeOutbox();
    const sender = new OutboxSender(outbox, quiet);
    start(sender);
    await until(() => outbox.claims >= 1);
    const claimsBefore = outbox.claims;
    sender.offer([outbox.job(10), outbox.job(11)]);
    await until(() => outbox.recorded.length === 2);
    expect(outbox.delivered.sort()).toEqual([10, 11]);
    // The hand-over needed no claim: at most the wake-up's look at the table, never one per job.
    expect(outbox.claims - claimsBefore).toBeLessThanOrEqual(1);
  });

  it('starts no send while the database is away, and records what was in flight once it is back', async () => {
    const outbox = new FakeOutbox();
    outbox.add(1);
    let open!: () => void;
    outbox.gate = new Promise((resolve) => (open = resolve));
    const sender = new OutboxSender(outbox, quiet);
    start(sender);
    await until(() => outbox.inFlight === 1);
    // The database goes away while job 1 is with the mail server; job 2 is handed over meanwhile.
    outbox.down = true;
    await until(() => outbox.claims >= 2);
    sender.offer([outbox.job(2)]);
    open();
    await tick(600);
    expect(outbox.delivered).toEqual([1]);
    expect(outbox.recorded).toEqual([]);
    // Back: the outcome of the send in flight is recorded (not sent again), then job 2 goes.
    outbox.down = false;
    await until(() => outbox.recorded.length === 2);
    expect(outbox.delivered).toEqual([1, 2]);
    expect(outbox.recorded).toEqual([1, 2]);
  });

  it('on stop, lets the sends in flight finish and be recorded, and gives back what it had not started', async () => {
    const outbox = new FakeOutbox();
    outbox.concurrency = 1;
    outbox.add(1);
    let open!: () => void;
    outbox.gate = new Promise((resolve) => (open = resolve));
    const sender = new OutboxSender(outbox, quiet);
    start(sender);
    await until(() => outbox.inFlight === 1);
    sender.offer([outbox.job(2), outbox.job(3)]);
    stop.abort();
    let stopped = false;
    const stopping = running.then(() => (stopped = true));
    await tick(30);
    expect(stopped).toBe(false);
    open();
    await stopping;
    expect(outbox.delivered).toEqual([1]);
    expect(outbox.recorded).toEqual([1]);
    expect(outbox.released.sort()).toEqual([2, 3]);
  });

  it('gives a job back when its delivery sent nothing, so that it is due again', async () => {
    const outbox = new FakeOutbox();
    outbox.deliver = (job: Job): Promise<Delivery<string>> => {
      outbox.delivered.push(job.n);
      return Promise.resolve({ sent: false, reason: 'the mail log row could not be written' });
    };
    outbox.add(1);
    const sender = new OutboxSender(outbox, quiet);
    start(sender);
    await until(() => outbox.released.length === 1);
    expect(outbox.released).toEqual([1]);
    expect(outbox.recorded).toEqual([]);
  });
});

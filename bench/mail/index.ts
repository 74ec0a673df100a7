/**
 * The mail benches in one run: `npm run bench:mail`. Ticket-created latency (bench/mail/ticket-latency.ts), then
 * the marketing campaign's throughput (bench/mail/campaign.ts) when that bench is there.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { benchTicketLatency } from './ticket-latency';

async function main(): Promise<void> {
  await benchTicketLatency();
  const campaign = join(__dirname, 'campaign.ts');
  if (existsSync(campaign)) {
    process.stdout.write('\n');
    const bench = (await import(campaign)) as { benchCampaign?: () => Promise<void> };
    if (typeof bench.benchCampaign !== 'function') throw new Error('bench/mail/campaign.ts exports no benchCampaign()');
    await bench.benchCampaign();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

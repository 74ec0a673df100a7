import type { CampaignStatus } from '@ppr/contracts';
import { formatDateTime } from '../../../../lib/format-date';

/** Sending: a progress bar; done: the results panel (Total, Sent, Failed). Both come from the server's status. */
export function CampaignPanel({ status }: { status: CampaignStatus }) {
  if (status.state === 'idle' || status.campaignId === null) {
    return <p className="text-slate-700">No campaign has been sent yet.</p>;
  }
  const done = status.sent + status.failed + status.skipped;
  const percent = status.total === 0 ? 100 : Math.round((done / status.total) * 100);
  return (
    <div className="space-y-3">
      <p className="text-slate-900">
        <span className="font-semibold">{status.subject ?? '(no subject)'}</span>
        {status.startedAt ? <span className="text-slate-700"> · started {formatDateTime(status.startedAt)}</span> : null}
        {status.finishedAt ? <span className="text-slate-700"> · finished {formatDateTime(status.finishedAt)}</span> : null}
      </p>
      {status.state === 'running' ? (
        <div>
          <div className="flex justify-between text-sm text-slate-700">
            <span id="campaign-progress-label">Sending…</span>
            <span>{percent}%</span>
          </div>
          <div
            role="progressbar"
            aria-labelledby="campaign-progress-label"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            className="mt-1 h-3 w-full overflow-hidden rounded-full bg-slate-200"
          >
            <div className="h-full bg-brand-700 transition-all" style={{ width: `${percent}%` }} />
          </div>
          {status.nextBatchAt ? <p className="mt-1 text-sm text-slate-700">Next batch at {formatDateTime(status.nextBatchAt)}</p> : null}
        </div>
      ) : (
        <p className="font-semibold text-green-800">Campaign complete</p>
      )}
      <dl aria-label="Campaign results" className="grid grid-cols-3 gap-3 text-center">
        {(
          [
            ['Total', status.total, 'text-slate-900'],
            ['Sent', status.sent, 'text-green-800'],
            ['Failed', status.failed, 'text-red-700'],
          ] as const
        ).map(([label, value, tone]) => (
          <div key={label} className="rounded-lg border border-slate-200 p-3">
            <dt className="text-sm text-slate-700">{label}</dt>
            <dd className={`text-2xl font-bold ${tone}`}>{value}</dd>
          </div>
        ))}
      </dl>
      {status.skipped > 0 ? (
        <p className="text-sm text-slate-700">{status.skipped} unsubscribed before their turn and were skipped.</p>
      ) : null}
      {status.invalidEmails.length > 0 ? (
        <p className="text-sm text-slate-700">Not email addresses (not sent): {status.invalidEmails.join(', ')}</p>
      ) : null}
    </div>
  );
}

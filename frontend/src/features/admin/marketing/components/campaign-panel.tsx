import type { CampaignStatus } from '@ppr/contracts';
import { useEffect, useRef, useState } from 'react';
import { ApiRequestError } from '../../../../lib/api-client';
import { formatDateTime } from '../../../../lib/format-date';
import { toast } from '../../../../lib/toast';
import { AdminDialog } from '../../components/admin-dialog';
import { adminButton } from '../../components/styles';
import { serverMessageOr } from '../../lib/errors';
import { useCancelCampaign } from '../api/cancel-campaign';

/**
 * Sending: a progress bar and a Cancel Campaign button; done: the results panel (Total, Sent, Failed). Both come
 * from the server's status.
 */
export function CampaignPanel({ status }: { status: CampaignStatus }) {
  const cancel = useCancelCampaign();
  // The campaign the confirmation was opened for: the dialog closes by itself when that one stops being sent
  // (it finished, or another admin canceled it), so it can never confirm the cancel of another.
  const [confirmingFor, setConfirmingFor] = useState<number | null>(null);
  // A fast double click reaches the handler twice before the pending state has rendered: one request only.
  const inFlight = useRef(false);
  // This admin asked for the cancel: the focus follows the button when it goes away.
  const ownCancel = useRef(false);
  const outcomeRef = useRef<HTMLParagraphElement>(null);
  const running = status.state === 'running';
  const confirming = running && confirmingFor !== null && confirmingFor === status.campaignId;

  // The button goes away when the campaign stops, and its dialog's "give focus back" then finds nothing: the
  // focus would drop to the page. Where this admin was acting (their dialog, their cancel) it goes to the line
  // that says how the campaign ended instead; a campaign that ends by itself takes no focus.
  const before = useRef({ running, confirming });
  useEffect(() => {
    const was = before.current;
    before.current = { running, confirming };
    const acted = was.confirming || (was.running && ownCancel.current);
    const focusLost = document.activeElement === null || document.activeElement === document.body;
    if (!running && !confirming && acted && focusLost) {
      ownCancel.current = false;
      outcomeRef.current?.focus();
    }
  }, [running, confirming]);

  const onConfirm = () => {
    if (inFlight.current || status.campaignId === null) return;
    inFlight.current = true;
    ownCancel.current = true;
    cancel.mutate(status.campaignId, {
      onSuccess: (answer) => {
        toast({ title: 'Campaign Canceled', description: answer.message });
        setConfirmingFor(null);
      },
      onError: (error) => {
        toast({
          title: 'Failed to Cancel Campaign',
          description: serverMessageOr(error, 'Failed to cancel the campaign. Please try again.'),
          variant: 'destructive',
        });
        // 409: this campaign is no longer being sent, so there is nothing left to confirm.
        if (error instanceof ApiRequestError && error.status === 409) setConfirmingFor(null);
        else ownCancel.current = false;
      },
      onSettled: () => {
        inFlight.current = false;
      },
    });
  };

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
      {running ? (
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
          <button
            type="button"
            className={`${adminButton.secondary} mt-3`}
            disabled={cancel.isPending}
            onClick={() => setConfirmingFor(status.campaignId)}
          >
            {cancel.isPending ? 'Canceling...' : 'Cancel Campaign'}
          </button>
        </div>
      ) : (
        <p
          ref={outcomeRef}
          tabIndex={-1}
          className={`font-semibold outline-none ${status.cancelled > 0 ? 'text-amber-900' : 'text-green-800'}`}
        >
          {status.cancelled > 0 ? 'Campaign canceled' : 'Campaign complete'}
        </p>
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
      {status.cancelled > 0 ? (
        <p className="text-sm text-slate-700">
          Canceled: {status.cancelled} recipient{status.cancelled === 1 ? ' was' : 's were'} not sent to.
        </p>
      ) : null}
      {!running && status.pending > 0 ? (
        <p className="text-sm text-slate-700">
          {status.pending} recipient{status.pending === 1 ? ' was' : 's were'} already being sent to when it was canceled: still going out.
        </p>
      ) : null}
      {status.invalidEmails.length > 0 ? (
        <p className="text-sm text-slate-700">Not email addresses (not sent): {status.invalidEmails.join(', ')}</p>
      ) : null}
      {confirming ? (
        <AdminDialog
          open
          onOpenChange={(open) => (open ? undefined : setConfirmingFor(null))}
          title="Cancel Campaign"
          description={`"${status.subject ?? '(no subject)'}" goes to nobody else: the recipients not yet sent to will not receive it. A batch already being sent still finishes. This cannot be undone.`}
        >
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className={adminButton.secondary} onClick={() => setConfirmingFor(null)}>
              Keep Sending
            </button>
            <button type="button" className={adminButton.danger} disabled={cancel.isPending} onClick={onConfirm}>
              {cancel.isPending ? 'Canceling...' : 'Cancel Campaign'}
            </button>
          </div>
        </AdminDialog>
      ) : null}
    </div>
  );
}

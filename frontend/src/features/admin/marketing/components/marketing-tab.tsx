import { useEffect, useMemo, useState } from 'react';
import { Spinner } from '../../../../components/ui/spinner';
import { formatDateTime } from '../../../../lib/format-date';
import { adminButton } from '../../components/styles';
import { serverMessageOr } from '../../lib/errors';
import { useCampaignStatus } from '../api/get-campaign-status';
import { formatKilobytes } from '../lib/content-size';
import { loadLastCampaign, saveLastCampaign, type LastCampaign } from '../lib/last-campaign';
import { AdminSection } from '../../components/admin-section';
import { CampaignPanel } from './campaign-panel';
import { MarketingCompose } from './marketing-compose';
import { SubscriptionsPanel } from './subscriptions-panel';

type Draft = { subject: string; emailList: string; content: string };

/** The Marketing tab: compose and send, the campaign's progress and results, the last email, the list. */
export function MarketingTab() {
  const status = useCampaignStatus();
  const [last, setLast] = useState<LastCampaign | null>(() => (typeof window === 'undefined' ? null : loadLastCampaign()));
  const [draft, setDraft] = useState<{ key: number; values?: Draft }>({ key: 0 });

  // The last email takes its campaign's final counts once the server has finished it, on screen and saved.
  const current = status.data;
  const shown = useMemo(
    () =>
      last && current?.state === 'completed' && last.campaignId === current.campaignId
        ? { ...last, success: current.sent, failed: current.failed }
        : last,
    [last, current],
  );
  useEffect(() => {
    if (shown && last && (shown.success !== last.success || shown.failed !== last.failed)) saveLastCampaign(shown);
  }, [shown, last]);

  return (
    <div className="space-y-6">
      <h2 className="text-2xl font-bold text-slate-900">Marketing</h2>
      <AdminSection id="marketing-compose" title="Compose">
        <MarketingCompose key={draft.key} initial={draft.values} onSent={setLast} />
      </AdminSection>
      <AdminSection id="marketing-campaign" title="Campaign Status">
        {status.isError ? (
          <p role="alert" className="text-red-700">
            {serverMessageOr(status.error, 'Failed to load the campaign status. Please try again.')}
          </p>
        ) : null}
        {/* A failed refresh keeps the last status on screen (and the panel mounted, with its cancel under way). */}
        {status.data ? (
          <CampaignPanel status={status.data} />
        ) : status.isPending ? (
          <Spinner label="Loading campaign status..." showLabel />
        ) : null}
      </AdminSection>
      {shown ? (
        <AdminSection id="marketing-last" title="Last Marketing Email">
          <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
            <dt className="font-semibold text-slate-900">Subject</dt>
            <dd>{shown.subject}</dd>
            <dt className="font-semibold text-slate-900">Sent</dt>
            <dd>{formatDateTime(shown.sentAt)}</dd>
            <dt className="font-semibold text-slate-900">Recipients</dt>
            <dd>{shown.recipients}</dd>
            <dt className="font-semibold text-slate-900">Sent / Failed</dt>
            <dd>
              {shown.success} / {shown.failed}
            </dd>
            <dt className="font-semibold text-slate-900">Size</dt>
            <dd>{formatKilobytes(shown.contentSize)}</dd>
          </dl>
          <button
            type="button"
            className={`${adminButton.secondary} mt-3`}
            onClick={() => setDraft((d) => ({ key: d.key + 1, values: { subject: shown.subject, emailList: '', content: shown.content } }))}
          >
            Reuse in Compose
          </button>
        </AdminSection>
      ) : null}
      <AdminSection id="marketing-subscriptions" title="Subscriptions">
        <SubscriptionsPanel />
      </AdminSection>
    </div>
  );
}

import type { AdminTicket, HistoryEntry } from '@ppr/contracts';
import type { ReactNode } from 'react';
import { Spinner } from '../../../../components/ui/spinner';
import { formatDateTime } from '../../../../lib/format-date';
import { AdminDialog } from '../../components/admin-dialog';
import { serverMessageOr } from '../../lib/errors';
import { useTicketHistory } from '../api/get-ticket-history';

type HistoryValue = HistoryEntry['changes'][number]['before'];

export function formatHistoryValue(value: HistoryValue): string {
  if (value === null || value === '') return '(none)';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}

export function actorLabel(actor: HistoryEntry['actor']): string {
  const kind = { admin: 'Admin', customer: 'Customer', visitor: 'Visitor', system: 'System' }[actor.kind] ?? actor.kind;
  return actor.name ? `${actor.name} (${kind.toLowerCase()})` : kind;
}

function Timeline({ entries }: { entries: readonly HistoryEntry[] }) {
  if (entries.length === 0) return <p className="text-slate-700">No history recorded.</p>;
  return (
    <ol aria-label="Audit timeline" className="space-y-3 [overflow-wrap:anywhere]">
      {entries.map((entry) => (
        <li key={entry.eventId} className="rounded-lg border border-slate-200 p-3">
          <p className="font-semibold text-slate-900">{entry.summary}</p>
          <p className="mt-0.5 text-sm text-slate-700">
            by <span className="font-medium text-slate-900">{actorLabel(entry.actor)}</span> ·{' '}
            <time dateTime={entry.occurredAt}>{formatDateTime(entry.occurredAt)}</time>
          </p>
          {entry.changes.length > 0 ? (
            <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
              {entry.changes.map((change) => (
                <div key={change.field} className="contents">
                  <dt className="font-mono text-slate-700">{change.field}</dt>
                  <dd className="text-slate-900 [overflow-wrap:anywhere]">
                    {formatHistoryValue(change.before)} <span aria-hidden="true">→</span>
                    <span className="sr-only">changed to</span> {formatHistoryValue(change.after)}
                  </dd>
                </div>
              ))}
            </dl>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

/** Who changed a ticket and when: its whole event stream, oldest first, and the emails sent about it. */
export function HistoryDialog({ ticket, onClose, emails }: { ticket: AdminTicket; onClose: () => void; emails?: ReactNode }) {
  const history = useTicketHistory(ticket.id);
  return (
    <AdminDialog
      open
      size="lg"
      onOpenChange={(open) => !open && onClose()}
      title={`History of ${ticket.reference}`}
      description={`${ticket.businessName} · ${ticket.contactName}`}
    >
      <h3 className="text-lg font-bold text-slate-900">Changes</h3>
      <div className="mt-2">
        {history.isPending ? (
          <Spinner label="Loading history..." showLabel />
        ) : history.isError ? (
          <p role="alert" className="text-red-700">
            {serverMessageOr(history.error, 'Failed to load the ticket history. Please try again.')}
          </p>
        ) : (
          <Timeline entries={history.data.entries} />
        )}
      </div>
      {emails ? (
        <>
          <h3 className="mt-6 text-lg font-bold text-slate-900">Emails</h3>
          <div className="mt-2">{emails}</div>
        </>
      ) : null}
    </AdminDialog>
  );
}

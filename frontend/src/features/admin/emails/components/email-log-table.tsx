import type { EmailNotification } from '@ppr/contracts';
import { useState } from 'react';
import { formatDateTime } from '../../../../lib/format-date';
import { toast } from '../../../../lib/toast';
import { AdminDialog } from '../../components/admin-dialog';
import { AdminTable } from '../../components/admin-table';
import { adminButton } from '../../components/styles';
import { serverMessageOr } from '../../lib/errors';
import { useResendEmailNotification } from '../api/resend-email-notification';
import { EmailContentFrame } from './email-content-frame';

/** Email log entries: type, recipient, subject, time, outcome; the rendered content and Resend for each. */
export function EmailLogTable({ entries, label }: { entries: readonly EmailNotification[]; label: string }) {
  const [viewing, setViewing] = useState<EmailNotification | null>(null);
  const resend = useResendEmailNotification();

  const onResend = (entry: EmailNotification) =>
    resend.mutate(entry.id, {
      onSuccess: (result) => toast({ title: 'Email Resent', description: result.message }),
      onError: (error) =>
        toast({ title: 'Failed to Resend Email', description: serverMessageOr(error, 'Failed to resend email'), variant: 'destructive' }),
    });

  if (entries.length === 0) return <p className="text-slate-700">No emails logged yet.</p>;
  return (
    <>
      <AdminTable label={label} columns={['Type', 'Recipient', 'Subject', 'Sent', 'Result', 'Actions']}>
        {entries.map((entry) => (
          <tr key={entry.id} className="align-top">
            <td className="whitespace-nowrap px-3 py-2 font-mono">{entry.notificationType}</td>
            <td className="px-3 py-2">{entry.emailTo}</td>
            <td className="px-3 py-2">{entry.subject}</td>
            <td className="whitespace-nowrap px-3 py-2">
              <time dateTime={entry.sentAt}>{formatDateTime(entry.sentAt)}</time>
            </td>
            <td className="px-3 py-2">
              {entry.success ? (
                <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-900">Sent</span>
              ) : (
                <>
                  <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-900">Failed</span>
                  {entry.errorMessage ? <p className="mt-1 text-red-700">{entry.errorMessage}</p> : null}
                </>
              )}
            </td>
            <td className="px-3 py-2">
              <div className="flex flex-wrap gap-1.5">
                <button type="button" className={adminButton.small} onClick={() => setViewing(entry)}>
                  View
                  <span className="sr-only">
                    {' '}
                    the email “{entry.subject}” to {entry.emailTo}
                  </span>
                </button>
                <button
                  type="button"
                  className={adminButton.small}
                  disabled={resend.isPending && resend.variables === entry.id}
                  onClick={() => onResend(entry)}
                >
                  Resend
                  <span className="sr-only">
                    {' '}
                    the email “{entry.subject}” to {entry.emailTo}
                  </span>
                </button>
              </div>
            </td>
          </tr>
        ))}
      </AdminTable>
      {viewing ? (
        <AdminDialog
          open
          size="lg"
          onOpenChange={(open) => !open && setViewing(null)}
          title={viewing.subject}
          description={`To ${viewing.emailTo} · ${formatDateTime(viewing.sentAt)}`}
        >
          <EmailContentFrame html={viewing.emailContent} title={`Content of the email “${viewing.subject}”`} />
        </AdminDialog>
      ) : null}
    </>
  );
}

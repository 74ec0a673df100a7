import { EMAIL_LOG_DEFAULT_LIMIT, EMAIL_LOG_MAX_LIMIT } from '@ppr/contracts';
import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { Field, Select } from '../../../../components/ui/form';
import { Spinner } from '../../../../components/ui/spinner';
import { adminButton } from '../../components/styles';
import { serverMessageOr } from '../../lib/errors';
import { useEmailNotifications } from '../api/get-email-notifications';
import { EmailLogTable } from './email-log-table';

const LIMITS = [EMAIL_LOG_DEFAULT_LIMIT, 50, 100, EMAIL_LOG_MAX_LIMIT];

/** The Email Notifications tab: the log of emails to customers, their content, and Resend. */
export function EmailsTab() {
  const [limit, setLimit] = useState(EMAIL_LOG_DEFAULT_LIMIT);
  const log = useEmailNotifications(limit);
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h2 className="text-2xl font-bold text-slate-900">Email Notifications</h2>
        <div className="flex items-end gap-2">
          <Field label="Show" id="email-log-limit">
            <Select
              value={String(limit)}
              onChange={(event) => setLimit(Number(event.target.value))}
              options={LIMITS.map((value) => ({ value: String(value), label: `Latest ${value}` }))}
            />
          </Field>
          <button type="button" onClick={() => void log.refetch()} disabled={log.isFetching} className={adminButton.secondary}>
            <RefreshCw aria-hidden="true" className="h-4 w-4" /> Refresh
          </button>
        </div>
      </div>
      {log.isPending ? (
        <Spinner label="Loading email notifications..." showLabel />
      ) : log.isError ? (
        <p role="alert" className="text-red-700">
          {serverMessageOr(log.error, 'Failed to load email notifications. Please try again.')}
        </p>
      ) : (
        <EmailLogTable entries={log.data} label="Email notifications" />
      )}
    </div>
  );
}

import { Spinner } from '../../../../components/ui/spinner';
import { serverMessageOr } from '../../lib/errors';
import { useTicketEmailNotifications } from '../api/get-ticket-email-notifications';
import { EmailLogTable } from './email-log-table';

/** The emails sent about one ticket, for its History view. */
export function TicketEmails({ ticketId }: { ticketId: number }) {
  const emails = useTicketEmailNotifications(ticketId);
  if (emails.isPending) return <Spinner label="Loading emails..." showLabel />;
  if (emails.isError)
    return (
      <p role="alert" className="text-red-700">
        {serverMessageOr(emails.error, 'Failed to load the emails of this ticket.')}
      </p>
    );
  return <EmailLogTable entries={emails.data} label="Emails about this ticket" />;
}

import { useState } from 'react';
import { Spinner } from '../../../../components/ui/spinner';
import { formatDateTime } from '../../../../lib/format-date';
import { ListPager } from '../../components/list-pager';
import { serverMessageOr } from '../../lib/errors';
import { totalPagesOf } from '../../lib/pagination';
import { useContactMessages } from '../api/get-contact-messages';

/** The messages sent through the contact form. */
export function ContactMessages() {
  const [page, setPage] = useState(1);
  const list = useContactMessages(page);
  if (list.isPending) return <Spinner label="Loading contact messages..." showLabel />;
  if (list.isError)
    return (
      <p role="alert" className="text-red-700">
        {serverMessageOr(list.error, 'Failed to load contact messages. Please try again.')}
      </p>
    );
  if (list.data.messages.length === 0) return <p className="text-slate-700">No contact messages yet.</p>;
  const pages = totalPagesOf(list.data.total, list.data.limit);
  return (
    <div className="space-y-3">
      <ul aria-label="Contact messages" className="space-y-3">
        {list.data.messages.map((message) => (
          <li key={message.id} className="rounded-lg border border-slate-200 p-3">
            <p className="font-semibold text-slate-900">{message.subject}</p>
            <p className="text-sm text-slate-700">
              {message.name} ·{' '}
              <a className="text-brand-700 underline" href={`mailto:${message.email}`}>
                {message.email}
              </a>{' '}
              ·{' '}
              <a className="text-brand-700 underline" href={`tel:${message.phone}`}>
                {message.phone}
              </a>{' '}
              · <time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time>
            </p>
            <p className="mt-2 whitespace-pre-wrap text-slate-900">{message.message}</p>
          </li>
        ))}
      </ul>
      <ListPager page={page} pages={pages} onPage={setPage} />
    </div>
  );
}

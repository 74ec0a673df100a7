import { ADMIN_TICKETS_DEFAULT_LIMIT, type AdminTicket, type TicketStatus } from '@ppr/contracts';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Spinner } from '../../../../components/ui/spinner';
import { toast } from '../../../../lib/toast';
import { useEngineers } from '../../engineers/api/get-engineers';
import { isUnauthorized } from '../../lib/errors';
import { STATUS_LABELS } from '../../lib/labels';
import { totalPagesOf } from '../../lib/pagination';
import { useLiveAdminUpdates } from '../../live/use-live-admin-updates';
import { useAssignEngineer } from '../api/assign-engineer';
import { useAdminTickets, type AdminTicketFilters } from '../api/get-admin-tickets';
import { useUpdateTicketStatus } from '../api/update-ticket-status';
import { toastUpdateError } from '../lib/update-toasts';
import { ConversationDialog } from './conversation-dialog';
import { HistoryDialog } from './history-dialog';
import { NotesDialog } from './notes-dialog';
import { RefundDialog } from './refund-dialog';
import { TicketFilters, type FilterChange } from './ticket-filters';
import { TicketPagination } from './ticket-pagination';
import { TicketsTable, type RowAction } from './tickets-table';
import { WaiveFeeDialog } from './waive-fee-dialog';

const INITIAL: AdminTicketFilters = {
  page: 1,
  limit: ADMIN_TICKETS_DEFAULT_LIMIT,
  search: '',
  status: 'all',
  response: 'all',
  waiting: 'all',
  sortBy: 'createdAt',
  sortOrder: 'desc',
};

export interface TicketsTabProps {
  /** A 401 from the API: the dashboard says 'Session Expired' and goes to the login screen. */
  onSessionExpired: () => void;
  /** The emails of one ticket, shown in its History view (the Email Notifications part of the portal). */
  renderTicketEmails?: (ticket: AdminTicket) => ReactNode;
}

/** The Support Tickets tab: filters, the paginated table, and every per-ticket command. */
export function TicketsTab({ onSessionExpired, renderTicketEmails }: TicketsTabProps) {
  const [filters, setFilters] = useState<AdminTicketFilters>(INITIAL);
  const [dialog, setDialog] = useState<{ ticket: AdminTicket; action: RowAction } | null>(null);
  const tickets = useAdminTickets(filters);
  // New tickets and changes made elsewhere show without a reload.
  useLiveAdminUpdates();
  const engineers = useEngineers();
  const status = useUpdateTicketStatus();
  const assign = useAssignEngineer();

  useEffect(() => {
    if (!tickets.isError) return;
    if (isUnauthorized(tickets.error)) onSessionExpired();
    else toast({ title: 'Error', description: 'Failed to load tickets. Please try again.', variant: 'destructive' });
  }, [tickets.isError, tickets.error, onSessionExpired]);

  const onUnauthorized = useCallback(
    (error: unknown) => {
      if (!isUnauthorized(error)) return false;
      onSessionExpired();
      return true;
    },
    [onSessionExpired],
  );

  // A new filter starts again at the first page.
  const onFilterChange = useCallback((change: FilterChange) => setFilters((current) => ({ ...current, ...change, page: 1 })), []);

  const onStatus = (ticket: AdminTicket, next: TicketStatus) =>
    status.mutate(
      { ticketId: ticket.id, body: { status: next } },
      {
        onSuccess: () => toast({ title: 'Status Updated', description: `${ticket.reference} is now ${STATUS_LABELS[next]}` }),
        onError: (error) => {
          if (!onUnauthorized(error)) toastUpdateError(error, 'Failed to update ticket status');
        },
      },
    );

  const onAssign = (ticket: AdminTicket, engineerId: number | null) =>
    assign.mutate(
      { ticketId: ticket.id, body: { engineerId } },
      {
        onSuccess: (updated) =>
          toast({
            title: 'Engineer Assigned',
            description: updated.engineerName
              ? `${ticket.reference} is assigned to ${updated.engineerName}`
              : `${ticket.reference} has no engineer`,
          }),
        onError: (error) => {
          if (!onUnauthorized(error)) toastUpdateError(error, 'Failed to assign the engineer');
        },
      },
    );

  const data = tickets.data;
  const totalPages = data ? totalPagesOf(data.total, filters.limit) : 1;
  const busyTicketId = status.isPending
    ? (status.variables?.ticketId ?? null)
    : assign.isPending
      ? (assign.variables?.ticketId ?? null)
      : null;
  const close = () => setDialog(null);
  const first = data && data.total > 0 ? (filters.page - 1) * filters.limit + 1 : 0;
  const last = data ? Math.min(filters.page * filters.limit, data.total) : 0;

  return (
    <div className="space-y-6">
      <h2 className="text-2xl font-bold text-slate-900">Support Tickets</h2>
      <TicketFilters filters={filters} onChange={onFilterChange} />
      {!data ? (
        tickets.isError ? (
          <p className="text-red-700">Failed to load tickets. Please try again.</p>
        ) : (
          <Spinner label="Loading tickets..." showLabel />
        )
      ) : (
        <>
          <p role="status" aria-live="polite" className="text-sm text-slate-700">
            {data.total === 0 ? 'No tickets match these filters.' : `Showing ${first}–${last} of ${data.total} tickets`}
            {tickets.isFetching ? <span className="sr-only"> (updating)</span> : null}
          </p>
          {data.tickets.length > 0 ? (
            <TicketsTable
              tickets={data.tickets}
              engineers={engineers.data ?? []}
              busyTicketId={busyTicketId}
              onStatus={onStatus}
              onAssign={onAssign}
              onAction={(ticket, action) => setDialog({ ticket, action })}
            />
          ) : null}
          <TicketPagination
            page={filters.page}
            totalPages={totalPages}
            onPage={(page) => setFilters((current) => ({ ...current, page }))}
          />
        </>
      )}
      {dialog?.action === 'conversation' ? (
        <ConversationDialog ticket={dialog.ticket} onClose={close} onUnauthorized={onUnauthorized} />
      ) : null}
      {dialog?.action === 'notes' ? <NotesDialog ticket={dialog.ticket} onClose={close} onUnauthorized={onUnauthorized} /> : null}
      {dialog?.action === 'free' || dialog?.action === 'zero' ? (
        <WaiveFeeDialog ticket={dialog.ticket} kind={dialog.action} onClose={close} onUnauthorized={onUnauthorized} />
      ) : null}
      {dialog?.action === 'refund' ? <RefundDialog ticket={dialog.ticket} onClose={close} onUnauthorized={onUnauthorized} /> : null}
      {dialog?.action === 'history' ? (
        <HistoryDialog ticket={dialog.ticket} onClose={close} emails={renderTicketEmails?.(dialog.ticket)} />
      ) : null}
    </div>
  );
}

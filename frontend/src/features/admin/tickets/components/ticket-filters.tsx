import { ADMIN_TICKET_SORTS, RESPONSE_FILTERS, TICKET_STATUSES, type AdminTicketSort } from '@ppr/contracts';
import { useEffect, useState } from 'react';
import { Field, Input, Select } from '../../../../components/ui/form';
import { RESPONSE_FILTER_LABELS, STATUS_LABELS } from '../../lib/labels';
import type { AdminTicketFilters } from '../api/get-admin-tickets';

const SORT_LABELS: Record<AdminTicketSort, string> = {
  createdAt: 'Date created',
  businessName: 'Business name',
  contactName: 'Contact name',
  status: 'Status',
  responseDue: 'Response due',
};

export type FilterChange = Partial<Omit<AdminTicketFilters, 'page' | 'limit'>>;

/** Search, status, response clock, conversation, sort by and order. Typing searches after a short pause. */
export function TicketFilters({ filters, onChange }: { filters: AdminTicketFilters; onChange: (change: FilterChange) => void }) {
  const [search, setSearch] = useState(filters.search);

  useEffect(() => {
    if (search === filters.search) return;
    const timer = setTimeout(() => onChange({ search }), 300);
    return () => clearTimeout(timer);
  }, [search, filters.search, onChange]);

  return (
    <form
      role="search"
      aria-label="Filter tickets"
      onSubmit={(event) => event.preventDefault()}
      className="grid gap-4 sm:grid-cols-2 lg:grid-cols-7"
    >
      <Field label="Search" id="ticket-search" className="lg:col-span-2">
        <Input
          type="search"
          name="search"
          placeholder="Business, contact, email, phone or reference"
          value={search}
          maxLength={100}
          onChange={(event) => setSearch(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') onChange({ search });
          }}
        />
      </Field>
      <Field label="Status" id="ticket-status-filter">
        <Select
          value={filters.status}
          onChange={(event) => onChange({ status: event.target.value as AdminTicketFilters['status'] })}
          options={[{ value: 'all', label: 'All statuses' }, ...TICKET_STATUSES.map((value) => ({ value, label: STATUS_LABELS[value] }))]}
        />
      </Field>
      <Field label="Response clock" id="ticket-response-filter">
        <Select
          value={filters.response}
          onChange={(event) => onChange({ response: event.target.value as AdminTicketFilters['response'] })}
          options={[{ value: 'all', label: 'Any' }, ...RESPONSE_FILTERS.map((value) => ({ value, label: RESPONSE_FILTER_LABELS[value] }))]}
        />
      </Field>
      <Field label="Conversation" id="ticket-waiting-filter">
        <Select
          value={filters.waiting}
          onChange={(event) => onChange({ waiting: event.target.value as AdminTicketFilters['waiting'] })}
          options={[
            { value: 'all', label: 'Any' },
            { value: 'us', label: 'Waiting on us' },
          ]}
        />
      </Field>
      <div className="grid grid-cols-2 gap-4 lg:col-span-2">
        <Field label="Sort by" id="ticket-sort-by">
          <Select
            value={filters.sortBy}
            onChange={(event) => onChange({ sortBy: event.target.value as AdminTicketSort })}
            options={ADMIN_TICKET_SORTS.map((value) => ({ value, label: SORT_LABELS[value] }))}
          />
        </Field>
        <Field label="Order" id="ticket-sort-order">
          <Select
            value={filters.sortOrder}
            onChange={(event) => onChange({ sortOrder: event.target.value as AdminTicketFilters['sortOrder'] })}
            options={[
              { value: 'desc', label: 'Descending' },
              { value: 'asc', label: 'Ascending' },
            ]}
          />
        </Field>
      </div>
    </form>
  );
}

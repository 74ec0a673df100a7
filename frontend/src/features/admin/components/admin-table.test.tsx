import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AdminTable } from './admin-table';

describe('AdminTable', () => {
  it('puts the table in a labelled, focusable region with one column header per heading', () => {
    render(
      <AdminTable label="Projection status" columns={['Projection', 'Lag (events)']} className="mt-2">
        <tr>
          <td>tickets</td>
          <td>0</td>
        </tr>
      </AdminTable>,
    );
    const region = screen.getByRole('region', { name: 'Projection status' });
    expect(region).toHaveAttribute('tabindex', '0');
    expect(region).toHaveClass('overflow-x-auto', 'mt-2');
    const headers = within(region).getAllByRole('columnheader');
    expect(headers.map((header) => header.textContent)).toEqual(['Projection', 'Lag (events)']);
    expect(headers[0]).toHaveAttribute('scope', 'col');
    expect(headers[0]).not.toHaveClass('whitespace-nowrap');
    expect(within(region).getByRole('cell', { name: 'tickets' })).toBeInTheDocument();
  });

  it('keeps the headings on one line when asked', () => {
    render(
      <AdminTable label="Delivery log" columns={['Last attempt']} nowrapHeadings>
        <tr>
          <td>—</td>
        </tr>
      </AdminTable>,
    );
    expect(screen.getByRole('columnheader', { name: 'Last attempt' })).toHaveClass('whitespace-nowrap');
    expect(screen.getByRole('region', { name: 'Delivery log' })).not.toHaveClass('mt-2');
  });
});

import type { AdminTicket } from '@ppr/contracts';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { adminTicket } from '../../../../test/ticket-fixture';
import { TicketFormDialog } from './ticket-form-dialog';

const ticketShown: AdminTicket = adminTicket({ reference: 'PPR-1042', businessName: 'Acme Dental' });

function renderDialog(overrides: Partial<Parameters<typeof TicketFormDialog>[0]> = {}) {
  const props = {
    ticket: ticketShown,
    title: 'Refund Diagnostic Fee',
    text: 'Refunds the fee.',
    onClose: vi.fn(),
    onSubmit: vi.fn(),
    pending: false,
    submitLabel: 'Refund Fee',
    pendingLabel: 'Refunding...',
    ...overrides,
  };
  render(
    <TicketFormDialog {...props}>
      <label>
        Reason <textarea />
      </label>
    </TicketFormDialog>,
  );
  return props;
}

describe('TicketFormDialog', () => {
  it("names the dialog, describes it with the ticket, and holds the caller's fields", () => {
    renderDialog();
    const dialog = screen.getByRole('dialog', { name: 'Refund Diagnostic Fee' });
    expect(dialog).toHaveAccessibleDescription('PPR-1042 · Acme Dental. Refunds the fee.');
    expect(within(dialog).getByLabelText('Reason')).toBeInTheDocument();
  });

  it('submits through the button without reloading, and cancels', async () => {
    const user = userEvent.setup();
    const props = renderDialog({ tone: 'danger' });
    const submit = screen.getByRole('button', { name: 'Refund Fee' });
    expect(submit).toHaveClass('bg-red-700');
    await user.click(submit);
    expect(props.onSubmit).toHaveBeenCalledTimes(1);
    expect(props.onClose).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(props.onClose).toHaveBeenCalledTimes(1);
  });

  it('shows the pending label and blocks a second submit while the request runs', () => {
    renderDialog({ pending: true });
    expect(screen.getByRole('button', { name: 'Refunding...' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Refunding...' })).toHaveClass('bg-brand-700');
  });
});

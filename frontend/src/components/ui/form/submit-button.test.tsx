import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SubmitButton } from './submit-button';

describe('SubmitButton', () => {
  it('submits the form with its label while nothing runs', () => {
    render(
      <SubmitButton pending={false} pendingLabel="Sending...">
        Send Message
      </SubmitButton>,
    );
    const button = screen.getByRole('button', { name: 'Send Message' });
    expect(button).toHaveAttribute('type', 'submit');
    expect(button).toBeEnabled();
  });

  it('reads the pending label and is disabled while the request runs', () => {
    render(
      <SubmitButton pending pendingLabel="Sending...">
        Send Message
      </SubmitButton>,
    );
    expect(screen.queryByRole('button', { name: 'Send Message' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sending...' })).toBeDisabled();
  });

  it('is disabled, with its own label, while the form is not ready, and keeps the extra classes', () => {
    render(
      <SubmitButton pending={false} pendingLabel="Processing..." disabled className="w-full">
        Pay Now $49.00
      </SubmitButton>,
    );
    const button = screen.getByRole('button', { name: 'Pay Now $49.00' });
    expect(button).toBeDisabled();
    expect(button).toHaveClass('w-full', 'bg-brand-700');
  });
});

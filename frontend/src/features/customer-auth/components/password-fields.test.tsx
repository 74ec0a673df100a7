import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { PasswordFields } from './password-fields';

const labels = { password: 'New password', confirmPassword: 'Confirm new password' };

describe('PasswordFields', () => {
  it('renders both password fields with their labels, the hint and new-password autocomplete', () => {
    render(<PasswordFields labels={labels} values={{ password: 'secret1', confirmPassword: '' }} errors={{}} onChange={vi.fn()} />);
    const password = screen.getByLabelText(/^New password/);
    const confirm = screen.getByLabelText(/^Confirm new password/);
    expect(password).toHaveAttribute('name', 'password');
    expect(password).toHaveAttribute('type', 'password');
    expect(password).toHaveAttribute('autocomplete', 'new-password');
    expect(password).toHaveValue('secret1');
    expect(password).toBeRequired();
    expect(password).toHaveAccessibleDescription('At least 6 characters');
    expect(confirm).toHaveAttribute('name', 'confirmPassword');
    expect(confirm).toHaveAttribute('autocomplete', 'new-password');
    expect(confirm).toBeRequired();
    expect(confirm).not.toHaveAttribute('aria-invalid');
  });

  it('shows each error on its own field', () => {
    render(
      <PasswordFields
        labels={labels}
        values={{ password: '', confirmPassword: 'x' }}
        errors={{ confirmPassword: 'Passwords do not match' }}
        onChange={vi.fn()}
      />,
    );
    expect(screen.getByLabelText(/^New password/)).not.toHaveAttribute('aria-invalid');
    const confirm = screen.getByLabelText(/^Confirm new password/);
    expect(confirm).toHaveAttribute('aria-invalid', 'true');
    expect(confirm).toHaveAccessibleDescription('Passwords do not match');
  });

  it('reports which field changed', () => {
    const onChange = vi.fn();
    render(<PasswordFields labels={labels} values={{ password: '', confirmPassword: '' }} errors={{}} onChange={onChange} />);
    fireEvent.change(screen.getByLabelText(/^New password/), { target: { value: 'abc' } });
    fireEvent.change(screen.getByLabelText(/^Confirm new password/), { target: { value: 'abd' } });
    expect(onChange.mock.calls).toEqual([
      ['password', 'abc'],
      ['confirmPassword', 'abd'],
    ]);
  });
});

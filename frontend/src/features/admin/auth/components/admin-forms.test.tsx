import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi, type Mock } from 'vitest';
import { Toaster } from '../../../../components/layout/toaster';
import { renderWithApp } from '../../../../test/render';
import { ChangePasswordForm } from '../../settings/components/change-password-form';
import { AdminLoginForm } from './admin-login-form';
import { AdminSetupForm } from './admin-setup-form';

type FetchMock = Mock<(input: string, init?: RequestInit) => Promise<Response>>;

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function mockFetch(answer: (url: string, init?: RequestInit) => Response): FetchMock {
  const mock: FetchMock = vi.fn((input: string, init?: RequestInit) => Promise.resolve(answer(input, init)));
  vi.stubGlobal('fetch', mock);
  return mock;
}

function sentBody(mock: FetchMock): unknown {
  const init = mock.mock.calls[0]?.[1];
  return typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
}

const admin = { id: 1, username: 'boss', email: 'boss@example.com', role: 'admin', createdAt: '2026-11-22T06:00:00.000Z', lastLogin: null };

afterEach(() => vi.unstubAllGlobals());

describe('AdminLoginForm', () => {
  it('asks for both fields before calling the server', async () => {
    const fetchMock = mockFetch(() => json(500, {}));
    renderWithApp(<AdminLoginForm onLoggedIn={() => undefined} />);
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect(screen.getByLabelText(/^Username/)).toHaveAccessibleDescription('Username is required');
    expect(screen.getByLabelText(/^Username/)).toHaveFocus();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('logs in and moves on; a refusal shows Login failed with the server message', async () => {
    const onLoggedIn = vi.fn();
    mockFetch(() => json(401, { message: 'Invalid credentials' }));
    renderWithApp(
      <>
        <AdminLoginForm onLoggedIn={onLoggedIn} />
        <Toaster />
      </>,
    );
    await userEvent.type(screen.getByLabelText(/^Username/), 'boss');
    await userEvent.type(screen.getByLabelText(/^Password/), 'wrong-password');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByText('Login failed')).toBeInTheDocument();
    expect(screen.getByText('Invalid credentials')).toBeInTheDocument();
    expect(onLoggedIn).not.toHaveBeenCalled();

    const fetchMock = mockFetch(() => json(200, admin));
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    await waitFor(() => expect(onLoggedIn).toHaveBeenCalledTimes(1));
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/admin/login');
    expect(sentBody(fetchMock)).toEqual({ username: 'boss', password: 'wrong-password' });
  });
});

describe('AdminSetupForm', () => {
  it('shows the spec messages for a short username, a bad email, a short password and a mismatch', async () => {
    const fetchMock = mockFetch(() => json(500, {}));
    renderWithApp(<AdminSetupForm onCreated={() => undefined} />);
    await userEvent.type(screen.getByLabelText(/^Username/), 'ab');
    await userEvent.type(screen.getByLabelText(/^Email/), 'not-an-email');
    await userEvent.type(screen.getByLabelText(/^Password/), 'short');
    await userEvent.type(screen.getByLabelText(/^Confirm Password/), 'other');
    await userEvent.click(screen.getByRole('button', { name: 'Create Admin Account' }));
    expect(screen.getByLabelText(/^Username/)).toHaveAccessibleDescription('Username must be at least 3 characters');
    expect(screen.getByLabelText(/^Email/)).toHaveAccessibleDescription('Please enter a valid email address');
    expect(screen.getByLabelText(/^Password/)).toHaveAccessibleDescription('Password must be at least 8 characters');
    expect(screen.getByLabelText(/^Confirm Password/)).toHaveAccessibleDescription('Passwords do not match');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends the account with the admin role, without the confirmation', async () => {
    const onCreated = vi.fn();
    const fetchMock = mockFetch(() => json(201, admin));
    renderWithApp(<AdminSetupForm onCreated={onCreated} />);
    await userEvent.type(screen.getByLabelText(/^Username/), 'boss');
    await userEvent.type(screen.getByLabelText(/^Email/), 'boss@example.com');
    await userEvent.type(screen.getByLabelText(/^Password/), 'Secret123');
    await userEvent.type(screen.getByLabelText(/^Confirm Password/), 'Secret123');
    await userEvent.click(screen.getByRole('button', { name: 'Create Admin Account' }));
    await waitFor(() => expect(onCreated).toHaveBeenCalled());
    expect(sentBody(fetchMock)).toEqual({ username: 'boss', email: 'boss@example.com', password: 'Secret123', role: 'admin' });
  });
});

describe('ChangePasswordForm', () => {
  async function fill(current: string, next: string, confirm: string) {
    if (current) await userEvent.type(screen.getByLabelText(/^Current Password/), current);
    if (next) await userEvent.type(screen.getByLabelText(/^New Password/), next);
    if (confirm) await userEvent.type(screen.getByLabelText(/^Confirm New Password/), confirm);
    await userEvent.click(screen.getByRole('button', { name: 'Update Password' }));
  }

  it.each([
    ['Secret123', 'short1A', 'short1A', /^New Password/, 'Password must be at least 8 characters'],
    ['Secret123', 'lowercase1', 'lowercase1', /^New Password/, 'Password must contain at least one uppercase letter'],
    ['Secret123', 'UPPERCASE1', 'UPPERCASE1', /^New Password/, 'Password must contain at least one lowercase letter'],
    ['Secret123', 'NoNumbersHere', 'NoNumbersHere', /^New Password/, 'Password must contain at least one number'],
    ['Secret123', 'Another123', '', /^Confirm New Password/, 'Please confirm your password'],
    ['Secret123', 'Another123', 'Another124', /^Confirm New Password/, 'Passwords do not match'],
    ['', 'Another123', 'Another123', /^Current Password/, 'Current password is required'],
  ])('refuses %s / %s / %s with the spec message', async (current, next, confirm, field, message) => {
    const fetchMock = mockFetch(() => json(500, {}));
    renderWithApp(<ChangePasswordForm />);
    await fill(current, next, confirm);
    expect(screen.getByLabelText(field)).toHaveAccessibleDescription(expect.stringContaining(message));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends the current and new password; a wrong current password shows Error with the server message', async () => {
    const fetchMock = mockFetch(() => json(400, { message: 'Current password is incorrect' }));
    renderWithApp(
      <>
        <ChangePasswordForm />
        <Toaster />
      </>,
    );
    await fill('Wrong1234', 'Another123', 'Another123');
    expect(await screen.findByText('Current password is incorrect')).toBeInTheDocument();
    expect(sentBody(fetchMock)).toEqual({ currentPassword: 'Wrong1234', newPassword: 'Another123' });
  });
});

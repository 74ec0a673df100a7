import { accountMessages } from '@ppr/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sentBodies, type FetchMock, json, mockFetch } from '../../../test/fetch-mock';
import { CurrentLocation, renderWithApp } from '../../../test/render';
import { ForgotPasswordForm } from './forgot-password-form';
import { LogoutButton } from './logout-button';
import { ProtectedRoute } from './protected-route';
import { ResetPasswordForm } from './reset-password-form';

let fetchMock: FetchMock;

function posted(path: string): unknown[] {
  return sentBodies(fetchMock, 'POST', path);
}

const customer = { id: 7, username: 'pat', email: 'pat@example.com', emailVerified: true };

beforeEach(() => {
  fetchMock = mockFetch(() => json(500, { message: 'unexpected call' }));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ProtectedRoute', () => {
  const guarded = (
    <Routes>
      <Route path="/customer/dashboard" element={<ProtectedRoute>{(user) => <p>Hello {user.username}</p>}</ProtectedRoute>} />
      <Route path="*" element={<CurrentLocation />} />
    </Routes>
  );

  it('shows the spinner while the customer lookup loads, then the page', async () => {
    let answer: (response: Response) => void = () => undefined;
    fetchMock = mockFetch(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderWithApp(guarded, { route: '/customer/dashboard' });
    expect(screen.getByRole('status')).toHaveTextContent('Checking your account...');
    answer(json(200, customer));
    expect(await screen.findByText('Hello pat')).toBeInTheDocument();
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/customer/user');
  });

  it('sends a logged-out visitor to the login page, with the way back', async () => {
    fetchMock = mockFetch(() => json(401, { message: accountMessages.notLoggedIn }));
    renderWithApp(guarded, { route: '/customer/dashboard' });
    expect(await screen.findByText('Now at /customer/login?returnTo=%2Fcustomer%2Fdashboard')).toBeInTheDocument();
    // A 401 is an answer ("nobody"), not a failure to retry.
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('retries the lookup once on a server error, then sends the visitor to log in', async () => {
    fetchMock = mockFetch(() => json(503, { message: 'down' }));
    renderWithApp(guarded, { route: '/customer/dashboard' });
    expect(await screen.findByText(/Now at \/customer\/login/, undefined, { timeout: 4000 })).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});

describe('LogoutButton', () => {
  it('logs out and goes to the login page', async () => {
    fetchMock = mockFetch(() => json(200, { message: accountMessages.loggedOut }));
    renderWithApp(
      <Routes>
        <Route path="/customer/dashboard" element={<LogoutButton />} />
        <Route path="*" element={<CurrentLocation />} />
      </Routes>,
      { route: '/customer/dashboard' },
    );
    await userEvent.click(screen.getByRole('button', { name: 'Log Out' }));
    expect(await screen.findByText('Now at /customer/login')).toBeInTheDocument();
    expect(posted('/api/customer/logout')).toEqual([undefined]);
  });
});

describe('ForgotPasswordForm', () => {
  it('checks the address, then shows the same answer for every address', async () => {
    fetchMock = mockFetch(() => json(200, { message: accountMessages.forgotPasswordSent }));
    renderWithApp(<ForgotPasswordForm />);
    await userEvent.type(screen.getByLabelText(/^Email/), 'nope');
    await userEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(screen.getByLabelText(/^Email/)).toHaveAccessibleDescription('Invalid email address');
    expect(fetchMock).not.toHaveBeenCalled();
    await userEvent.clear(screen.getByLabelText(/^Email/));
    await userEvent.type(screen.getByLabelText(/^Email/), 'pat@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByRole('status')).toHaveTextContent(accountMessages.forgotPasswordSent);
    expect(posted('/api/customer/forgot-password')).toEqual([{ email: 'pat@example.com' }]);
  });
});

describe('ResetPasswordForm', () => {
  it('says so when the link has no token', () => {
    renderWithApp(<ResetPasswordForm token={null} />);
    expect(screen.getByRole('alert')).toHaveTextContent('missing its token');
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/customer/forgot-password');
  });

  it('checks the passwords, posts the token with the new one, and offers the login', async () => {
    fetchMock = mockFetch(() => json(200, { message: accountMessages.passwordChanged }));
    renderWithApp(<ResetPasswordForm token="tok-1" />);
    await userEvent.type(screen.getByLabelText(/^New password/), 'short');
    await userEvent.type(screen.getByLabelText(/^Confirm new password/), 'other');
    await userEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(screen.getByLabelText(/^New password/)).toHaveAccessibleDescription(
      'At least 6 characters Password must be at least 6 characters',
    );
    expect(screen.getByLabelText(/^Confirm new password/)).toHaveAccessibleDescription('Passwords do not match');
    expect(fetchMock).not.toHaveBeenCalled();

    await userEvent.clear(screen.getByLabelText(/^New password/));
    await userEvent.type(screen.getByLabelText(/^New password/), 'amber lantern 7');
    await userEvent.clear(screen.getByLabelText(/^Confirm new password/));
    await userEvent.type(screen.getByLabelText(/^Confirm new password/), 'amber lantern 7');
    await userEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText(accountMessages.passwordChanged)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Login' })).toHaveAttribute('href', '/customer/login');
    expect(posted('/api/customer/reset-password')).toEqual([{ token: 'tok-1', password: 'amber lantern 7' }]);
  });

  it("shows the server's refusal of a used link", async () => {
    fetchMock = mockFetch(() => json(404, { message: accountMessages.resetInvalid }));
    renderWithApp(<ResetPasswordForm token="used" />);
    await userEvent.type(screen.getByLabelText(/^New password/), 'amber lantern 7');
    await userEvent.type(screen.getByLabelText(/^Confirm new password/), 'amber lantern 7');
    await userEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(accountMessages.resetInvalid);
  });
});

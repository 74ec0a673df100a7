import { accountMessages } from '@ppr/contracts';
import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sentBodies, type FetchMock, json, mockFetch } from '../../../test/fetch-mock';
import { CurrentLocation, renderWithApp } from '../../../test/render';
import { CustomerAuthPage } from './customer-auth-page';

let fetchMock: FetchMock;

function posted(path: string): unknown[] {
  return sentBodies(fetchMock, 'POST', path);
}

function renderAt(route: string) {
  return renderWithApp(
    <Routes>
      <Route path="/customer/login" element={<CustomerAuthPage initialTab="login" />} />
      <Route path="/customer/register" element={<CustomerAuthPage initialTab="register" />} />
      <Route path="*" element={<CurrentLocation />} />
    </Routes>,
    { route },
  );
}

const customer = { id: 7, username: 'pat', email: 'pat@example.com', emailVerified: true };

beforeEach(() => {
  fetchMock = mockFetch(() => json(500, { message: 'unexpected call' }));
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('login tab', () => {
  it('shows the validation messages and sends nothing', async () => {
    renderAt('/customer/login');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect(screen.getByLabelText(/Email or username/)).toHaveAccessibleDescription('Please enter your email or username');
    expect(screen.getByLabelText(/Email or username/)).toHaveFocus();
    expect(screen.getByLabelText(/^Password/)).toHaveAccessibleDescription('Password must be at least 6 characters');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('logs in by username and goes to the dashboard', async () => {
    fetchMock = mockFetch((url) => (url === '/api/customer/login' ? json(200, customer) : json(404, { message: 'no' })));
    renderAt('/customer/login');
    await userEvent.type(screen.getByLabelText(/Email or username/), ' pat ');
    await userEvent.type(screen.getByLabelText(/^Password/), 'violet kettle 42');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByText('Now at /customer/dashboard')).toBeInTheDocument();
    expect(posted('/api/customer/login')).toEqual([{ email: 'pat', password: 'violet kettle 42' }]);
  });

  it('goes to a same-site returnTo, never to another site', async () => {
    fetchMock = mockFetch(() => json(200, customer));
    const first = renderAt('/customer/login?returnTo=%2Fpayment%2F12');
    await userEvent.type(screen.getByLabelText(/Email or username/), 'pat');
    await userEvent.type(screen.getByLabelText(/^Password/), 'violet kettle 42');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByText('Now at /payment/12')).toBeInTheDocument();
    first.unmount();

    renderAt('/customer/login?returnTo=%2F%2Fevil.example%2Fx');
    await userEvent.type(screen.getByLabelText(/Email or username/), 'pat');
    await userEvent.type(screen.getByLabelText(/^Password/), 'violet kettle 42');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByText('Now at /customer/dashboard')).toBeInTheDocument();
  });

  it('waits 200 ms before leaving, so the success can be read', async () => {
    vi.useFakeTimers();
    fetchMock = mockFetch(() => json(200, customer));
    renderAt('/customer/login');
    fireEvent.change(screen.getByLabelText(/Email or username/), { target: { value: 'pat' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'violet kettle 42' } });
    fireEvent.click(screen.getByRole('button', { name: 'Log In' }));
    await act(() => vi.advanceTimersByTimeAsync(150));
    expect(screen.getByRole('button', { name: 'Logging in...' })).toBeDisabled();
    expect(screen.queryByText(/Now at/)).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(60));
    expect(screen.getByText('Now at /customer/dashboard')).toBeInTheDocument();
  });

  it("shows the server's message when the login is refused", async () => {
    fetchMock = mockFetch(() => json(401, { message: accountMessages.invalidCredentials }));
    renderAt('/customer/login');
    await userEvent.type(screen.getByLabelText(/Email or username/), 'pat');
    await userEvent.type(screen.getByLabelText(/^Password/), 'wrong password');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(accountMessages.invalidCredentials);
    expect(screen.getByRole('button', { name: 'Log In' })).toBeEnabled();
  });

  it('links to the forgotten-password page', () => {
    renderAt('/customer/login');
    expect(screen.getByRole('link', { name: 'Forgot your password?' })).toHaveAttribute('href', '/customer/forgot-password');
  });
});

describe('verified banner', () => {
  it('shows after ?verified=true for 5 seconds', () => {
    vi.useFakeTimers();
    renderAt('/customer/login?verified=true');
    expect(screen.getByText('Email verified successfully!')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(4900);
    });
    expect(screen.getByText('Email verified successfully!')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(200);
    });
    expect(screen.queryByText('Email verified successfully!')).not.toBeInTheDocument();
  });

  it('is absent without the flag', () => {
    renderAt('/customer/login');
    expect(screen.queryByText('Email verified successfully!')).not.toBeInTheDocument();
  });
});

describe('register tab', () => {
  it('opens on /customer/register and checks the confirmation', async () => {
    renderAt('/customer/register');
    expect(screen.getByRole('tab', { name: 'Register' })).toHaveAttribute('aria-selected', 'true');
    await userEvent.type(screen.getByLabelText(/^Username/), 'pa');
    await userEvent.type(screen.getByLabelText(/^Email/), 'not-an-email');
    await userEvent.type(screen.getByLabelText(/^Password/), 'violet kettle 42');
    await userEvent.type(screen.getByLabelText(/^Confirm password/), 'violet kettle 43');
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(screen.getByLabelText(/^Username/)).toHaveAccessibleDescription('Username must be at least 3 characters');
    expect(screen.getByLabelText(/^Email/)).toHaveAccessibleDescription('Invalid email address');
    expect(screen.getByLabelText(/^Confirm password/)).toHaveAccessibleDescription('Passwords do not match');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('registers without the confirmation field, then offers the login with the username filled in', async () => {
    fetchMock = mockFetch((url) => (url === '/api/customer/register' ? json(201, { message: accountMessages.registered }) : json(404, {})));
    renderAt('/customer/register?returnTo=%2Fsupport-request');
    await userEvent.type(screen.getByLabelText(/^Username/), 'newpat');
    await userEvent.type(screen.getByLabelText(/^Email/), 'newpat@example.com');
    await userEvent.type(screen.getByLabelText(/^Password/), 'violet kettle 42');
    await userEvent.type(screen.getByLabelText(/^Confirm password/), 'violet kettle 42');
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText(accountMessages.registered)).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Login' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByLabelText(/Email or username/)).toHaveValue('newpat');
    expect(posted('/api/customer/register')).toEqual([
      { username: 'newpat', email: 'newpat@example.com', password: 'violet kettle 42', businessName: null, phone: null },
    ]);

    fetchMock = mockFetch(() => json(200, { ...customer, username: 'newpat', emailVerified: false }));
    await userEvent.type(screen.getByLabelText(/^Password/), 'violet kettle 42');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByText('Now at /support-request')).toBeInTheDocument();
  });

  it("shows the server's refusal", async () => {
    fetchMock = mockFetch(() => json(409, { message: accountMessages.usernameTaken }));
    renderAt('/customer/register');
    await userEvent.type(screen.getByLabelText(/^Username/), 'taken');
    await userEvent.type(screen.getByLabelText(/^Email/), 'x@example.com');
    await userEvent.type(screen.getByLabelText(/^Password/), 'violet kettle 42');
    await userEvent.type(screen.getByLabelText(/^Confirm password/), 'violet kettle 42');
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(accountMessages.usernameTaken);
  });
});

import { accountMessages } from '@ppr/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fetchCalls, type FetchMock, json, mockFetch } from '../../../test/fetch-mock';
import { renderWithApp } from '../../../test/render';
import { UnsubscribePanel } from './unsubscribe-panel';

let fetchMock: FetchMock;

beforeEach(() => {
  fetchMock = mockFetch(() => json(500, { message: 'unexpected call' }));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('UnsubscribePanel', () => {
  it('token mode: looks the token up, then posts it, and confirms', async () => {
    fetchMock = mockFetch((url, init) => {
      if (url === '/api/unsubscribe/tok-123' && (init?.method ?? 'GET') === 'GET') return json(200, { email: 'pat@example.com' });
      if (url === '/api/unsubscribe' && init?.method === 'POST') return json(200, { message: accountMessages.unsubscribed });
      return json(404, { message: 'no route' });
    });
    renderWithApp(<UnsubscribePanel />, { route: '/unsubscribe?token=tok-123' });
    expect(await screen.findByText('You have been unsubscribed.')).toBeInTheDocument();
    expect(screen.getByText(/pat@example\.com will no longer receive marketing emails/)).toBeInTheDocument();
    expect(fetchCalls(fetchMock)).toEqual([
      { url: '/api/unsubscribe/tok-123', method: 'GET', body: undefined },
      { url: '/api/unsubscribe', method: 'POST', body: { token: 'tok-123' } },
    ]);
    expect(fetchMock.mock.calls[1]?.[1]?.credentials).toBe('include');
    expect(screen.getByRole('link', { name: 'Return to Homepage' })).toHaveAttribute('href', '/');
  });

  it('email mode: posts the address and confirms', async () => {
    fetchMock = mockFetch(() => json(200, { message: accountMessages.unsubscribed }));
    renderWithApp(<UnsubscribePanel />, { route: '/unsubscribe?email=pat%40example.com' });
    expect(await screen.findByText('You have been unsubscribed.')).toBeInTheDocument();
    expect(fetchCalls(fetchMock)).toEqual([{ url: '/api/unsubscribe', method: 'POST', body: { email: 'pat@example.com' } }]);
  });

  it('manual mode: validates the address with the schema message, then posts it', async () => {
    fetchMock = mockFetch(() => json(200, { message: accountMessages.unsubscribed }));
    renderWithApp(<UnsubscribePanel />, { route: '/unsubscribe' });
    const input = await screen.findByLabelText('Email address');
    await userEvent.type(input, 'not-an-email');
    await userEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();

    await userEvent.clear(input);
    await userEvent.type(input, 'sam@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    expect(await screen.findByText('You have been unsubscribed.')).toBeInTheDocument();
    expect(fetchCalls(fetchMock)).toEqual([{ url: '/api/unsubscribe', method: 'POST', body: { email: 'sam@example.com' } }]);
  });

  it('error: shows the server message and then the manual form', async () => {
    fetchMock = mockFetch(() => json(404, { message: 'This unsubscribe link has expired' }));
    renderWithApp(<UnsubscribePanel />, { route: '/unsubscribe?token=old' });
    expect(await screen.findByRole('alert')).toHaveTextContent('This unsubscribe link has expired');
    expect(screen.getByLabelText('Email address')).toBeInTheDocument();
    expect(fetchCalls(fetchMock)).toHaveLength(1);
  });

  it('error: falls back to "An unknown error occurred" when the server sends no message', async () => {
    fetchMock = mockFetch(() => new Response('Bad Gateway', { status: 502 }));
    renderWithApp(<UnsubscribePanel />, { route: '/unsubscribe?email=pat%40example.com' });
    expect(await screen.findByRole('alert')).toHaveTextContent('An unknown error occurred');
    expect(screen.getByRole('button', { name: 'Unsubscribe' })).toBeInTheDocument();
  });

  it('error: a failed POST after a good token lookup also falls back to the manual form', async () => {
    fetchMock = mockFetch((url) =>
      url.startsWith('/api/unsubscribe/') ? json(200, { email: 'pat@example.com' }) : json(400, { message: 'Already unsubscribed' }),
    );
    renderWithApp(<UnsubscribePanel />, { route: '/unsubscribe?token=t' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Already unsubscribed');
    expect(screen.getByLabelText('Email address')).toBeInTheDocument();
  });

  it('error query parameter: shows the error and the manual form without calling the server', async () => {
    renderWithApp(<UnsubscribePanel />, { route: '/unsubscribe?error=invalid-token' });
    expect(await screen.findByRole('alert')).toHaveTextContent('This unsubscribe link is invalid or has expired.');
    expect(screen.getByLabelText('Email address')).toBeInTheDocument();
    await waitFor(() => expect(fetchMock).not.toHaveBeenCalled());
  });
});

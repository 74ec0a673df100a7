import { accountMessages } from '@ppr/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { renderWithApp } from '../../../test/render';
import { UnsubscribePanel } from './unsubscribe-panel';

type Handler = (url: string, init: RequestInit | undefined) => Response;

let fetchMock: Mock<(input: string, init?: RequestInit) => Promise<Response>>;

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function mockFetch(handler: Handler) {
  fetchMock = vi.fn((input: string, init?: RequestInit) => Promise.resolve(handler(input, init)));
  vi.stubGlobal('fetch', fetchMock);
}

function calls(): { url: string; method: string; body: unknown }[] {
  return fetchMock.mock.calls.map(([url, init]) => ({
    url,
    method: init?.method ?? 'GET',
    body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
  }));
}

beforeEach(() => {
  mockFetch(() => json(500, { message: 'unexpected call' }));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('UnsubscribePanel', () => {
  it('token mode: looks the token up, then posts it, and confirms', async () => {
    mockFetch((url, init) => {
      if (url === '/api/unsubscribe/tok-123' && (init?.method ?? 'GET') === 'GET') return json(200, { email: 'pat@example.com' });
      if (url === '/api/unsubscribe' && init?.method === 'POST') return json(200, { message: accountMessages.unsubscribed });
      return json(404, { message: 'no route' });
    });
    renderWithApp(<UnsubscribePanel />, { route: '/unsubscribe?token=tok-123' });
    expect(await screen.findByText('You have been unsubscribed.')).toBeInTheDocument();
    expect(screen.getByText(/pat@example\.com will no longer receive marketing emails/)).toBeInTheDocument();
    expect(calls()).toEqual([
      { url: '/api/unsubscribe/tok-123', method: 'GET', body: undefined },
      { url: '/api/unsubscribe', method: 'POST', body: { token: 'tok-123' } },
    ]);
    expect(fetchMock.mock.calls[1]?.[1]?.credentials).toBe('include');
    expect(screen.getByRole('link', { name: 'Return to Homepage' })).toHaveAttribute('href', '/');
  });

  it('email mode: posts the address and confirms', async () => {
    mockFetch(() => json(200, { message: accountMessages.unsubscribed }));
    renderWithApp(<UnsubscribePanel />, { route: '/unsubscribe?email=pat%40example.com' });
    expect(await screen.findByText('You have been unsubscribed.')).toBeInTheDocument();
    expect(calls()).toEqual([{ url: '/api/unsubscribe', method: 'POST', body: { email: 'pat@example.com' } }]);
  });

  it('manual mode: validates the address with the schema message, then posts it', async () => {
    mockFetch(() => json(200, { message: accountMessages.unsubscribed }));
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
    expect(calls()).toEqual([{ url: '/api/unsubscribe', method: 'POST', body: { email: 'sam@example.com' } }]);
  });

  it('error: shows the server message and then the manual form', async () => {
    mockFetch(() => json(404, { message: 'This unsubscribe link has expired' }));
    renderWithApp(<UnsubscribePanel />, { route: '/unsubscribe?token=old' });
    expect(await screen.findByRole('alert')).toHaveTextContent('This unsubscribe link has expired');
    expect(screen.getByLabelText('Email address')).toBeInTheDocument();
    expect(calls()).toHaveLength(1);
  });

  it('error: falls back to "An unknown error occurred" when the server sends no message', async () => {
    mockFetch(() => new Response('Bad Gateway', { status: 502 }));
    renderWithApp(<UnsubscribePanel />, { route: '/unsubscribe?email=pat%40example.com' });
    expect(await screen.findByRole('alert')).toHaveTextContent('An unknown error occurred');
    expect(screen.getByRole('button', { name: 'Unsubscribe' })).toBeInTheDocument();
  });

  it('error: a failed POST after a good token lookup also falls back to the manual form', async () => {
    mockFetch((url) =>
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

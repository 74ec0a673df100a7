import type { TicketDetail, TicketMessage } from '@ppr/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FetchMock, fetchCalls, json, mockFetch } from '../../../test/fetch-mock';
import { fakeFile, message } from '../../../test/message-fixture';
import { renderWithApp } from '../../../test/render';
import { ticket } from '../../../test/ticket-fixture';
import { CustomerTicket } from './ticket-detail';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The server of one ticket (12) and its thread; a posted message joins the thread and reopens a resolved ticket. */
function serve(initial: { ticket: TicketDetail; messages: TicketMessage[] }, answerPost?: () => Response): FetchMock {
  let current = initial.ticket;
  const thread = [...initial.messages];
  return mockFetch((url, init) => {
    if (url === '/api/tickets/12') return json(200, current);
    if (url === '/api/tickets/12/messages' && (init?.method ?? 'GET') === 'GET') return json(200, { messages: thread, unread: 0 });
    if (url === '/api/tickets/12/messages' && init?.method === 'POST') {
      const refusal = answerPost?.();
      if (refusal) return refusal;
      const form = init.body instanceof FormData ? init.body : undefined;
      const body = form ? (form.get('body') as string) : (JSON.parse(init.body as string) as { body: string }).body;
      const files = form ? (form.getAll('attachments') as File[]) : [];
      const posted = message({
        body,
        attachments: files.map((file, n) => ({
          id: `aaaaaaaa-aaaa-4aaa-8aaa-${String(n).padStart(12, '0')}`,
          filename: file.name,
          contentType: 'image/png',
          sizeBytes: file.size,
        })),
      });
      thread.push(posted);
      if (current.status === 'resolved') current = { ...current, status: 'active' };
      return json(201, posted);
    }
    return json(404, { message: 'unexpected' });
  });
}

const resolved = ticket({ id: 12, reference: 'PPR-2026-12', status: 'resolved', paymentStatus: 'completed' });

describe('the conversation on the customer ticket page', () => {
  it('shows the thread under the ticket details, with staff replies labelled and files to download', async () => {
    const reply = message({
      author: { kind: 'staff', name: 'Sam Ortiz' },
      body: 'Please restart the router.\nThen tell us what the lights do.',
      attachments: [
        { id: '11111111-1111-4111-8111-111111111111', filename: 'router.pdf', contentType: 'application/pdf', sizeBytes: 2048 },
      ],
    });
    serve({ ticket: resolved, messages: [message({ body: 'The Wi-Fi is down.' }), reply] });
    renderWithApp(<CustomerTicket id="12" />);
    const section = await screen.findByRole('region', { name: 'Conversation' });
    const items = await within(section).findAllByRole('listitem');
    expect(within(items[0]!).getByText('You')).toBeInTheDocument();
    expect(within(items[1]!).getByText('Staff')).toBeInTheDocument();
    expect(within(items[1]!).getByText('Sam Ortiz')).toBeInTheDocument();
    expect(within(section).getByRole('link', { name: 'router.pdf (2 KB)' })).toHaveAttribute(
      'href',
      '/api/tickets/12/attachments/11111111-1111-4111-8111-111111111111',
    );
    // After the details: the conversation comes last on the page.
    const details = screen.getByRole('heading', { name: 'Request Details' });
    expect(details.compareDocumentPosition(section) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('invites the first message when there is none', async () => {
    serve({ ticket: resolved, messages: [] });
    renderWithApp(<CustomerTicket id="12" />);
    expect(await screen.findByText('No messages yet. Write to us below.')).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Write to us' })).toBeInTheDocument();
  });

  it('sends a message as JSON, then reads the thread and the ticket again (the message reopened it)', async () => {
    const fetchMock = serve({ ticket: resolved, messages: [] });
    const user = userEvent.setup();
    renderWithApp(<CustomerTicket id="12" />);
    expect(await screen.findByRole('progressbar', { name: 'Status: Resolved' })).toBeInTheDocument();
    await screen.findByText('No messages yet. Write to us below.');

    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'It happened again this morning.');
    await user.click(screen.getByRole('button', { name: 'Send' }));

    expect(await screen.findByText('It happened again this morning.')).toBeInTheDocument();
    expect(await screen.findByRole('progressbar', { name: 'Status: Active' })).toBeInTheDocument();
    const posts = fetchCalls(fetchMock).filter((call) => call.method === 'POST');
    expect(posts).toEqual([{ url: '/api/tickets/12/messages', method: 'POST', body: { body: 'It happened again this morning.' } }]);
    expect(fetchCalls(fetchMock).filter((call) => call.url === '/api/tickets/12').length).toBeGreaterThanOrEqual(2);
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveFocus();
  });

  it('sends files as multipart form data, the text first', async () => {
    const fetchMock = serve({ ticket: ticket({ id: 12 }), messages: [] });
    const user = userEvent.setup();
    renderWithApp(<CustomerTicket id="12" />);
    await screen.findByText('No messages yet. Write to us below.');
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Photo of the error');
    await user.upload(screen.getByLabelText('Attach files'), fakeFile('error.png', 'image/png', 4096));
    await user.click(screen.getByRole('button', { name: 'Send' }));
    // (The size is the test server's: FormData hands it a copy of the file, with its real size.)
    expect(await screen.findByRole('link', { name: /^error\.png \(/ })).toBeInTheDocument();

    const [, init] = fetchMock.mock.calls.find(([, options]) => options?.method === 'POST')!;
    const form = init!.body as FormData;
    expect([...form.keys()]).toEqual(['body', 'attachments']);
    expect(form.get('body')).toBe('Photo of the error');
    expect((form.get('attachments') as File).name).toBe('error.png');
    expect(new Headers(init!.headers).get('Content-Type')).toBeNull();
    expect(new Headers(init!.headers).get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("shows the server's refusal by its field", async () => {
    serve({ ticket: ticket({ id: 12 }), messages: [] }, () =>
      json(400, {
        message: 'Validation failed',
        errors: [{ path: 'attachments', message: 'Attachments must be images (PNG, JPEG, WebP, HEIC), PDF or plain text' }],
      }),
    );
    const user = userEvent.setup();
    renderWithApp(<CustomerTicket id="12" />);
    await screen.findByText('No messages yet. Write to us below.');
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'A file');
    await user.upload(screen.getByLabelText('Attach files'), fakeFile('fake.png', 'image/png'));
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.getByLabelText('Attach files')).toHaveFocus());
    expect(screen.getByLabelText('Attach files')).toHaveAccessibleDescription(
      expect.stringContaining('Attachments must be images (PNG, JPEG, WebP, HEIC), PDF or plain text'),
    );
  });

  it('says so when the thread cannot be read, and offers to try again', async () => {
    let fail = true;
    mockFetch((url) => {
      if (url === '/api/tickets/12') return json(200, ticket({ id: 12 }));
      if (url === '/api/tickets/12/messages') return fail ? json(500, { message: 'boom' }) : json(200, { messages: [], unread: 0 });
      return json(404, { message: 'unexpected' });
    });
    const user = userEvent.setup();
    renderWithApp(<CustomerTicket id="12" />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load the conversation. Please try again.');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No messages yet. Write to us below.')).toBeInTheDocument();
  });
});

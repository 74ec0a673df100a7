import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../lib/format-date';
import { message } from '../../test/message-fixture';
import { bodyParts, MessageThread, type MessageThreadProps } from './message-thread';

const href: MessageThreadProps['attachmentHref'] = (_, attachment) => `/files/${attachment.id}`;

function items() {
  return within(screen.getByRole('list', { name: 'Messages' })).getAllByRole('listitem');
}

describe('MessageThread', () => {
  it("shows each message's author, side, time and body, oldest first, as the customer reads it", () => {
    const thread = [
      message({ author: { kind: 'customer', name: 'Pat Lee' }, body: 'The printer is offline again.' }),
      message({
        author: { kind: 'staff', name: 'Sam Ortiz' },
        body: 'We will call you at 3 PM.',
        via: 'email',
        createdAt: '2026-11-20T16:05:00.000Z',
      }),
    ];
    render(<MessageThread messages={thread} viewer="customer" empty="None" attachmentHref={href} />);
    const [first, second] = items();
    expect(first).toHaveTextContent('Pat Lee');
    expect(within(first!).getByText('You')).toBeInTheDocument();
    expect(first).toHaveTextContent('The printer is offline again.');
    expect(within(second!).getByText('Staff')).toBeInTheDocument();
    expect(within(second!).getByText('by email')).toBeInTheDocument();
    const time = within(second!).getByText(formatDateTime('2026-11-20T16:05:00.000Z'));
    expect(time.tagName).toBe('TIME');
    expect(time).toHaveAttribute('datetime', '2026-11-20T16:05:00.000Z');
  });

  it("calls the customer's side 'Customer' for staff", () => {
    render(<MessageThread messages={[message()]} viewer="staff" empty="None" attachmentHref={href} />);
    expect(within(items()[0]!).getByText('Customer')).toBeInTheDocument();
  });

  it('keeps the line breaks of a body and shows markup as text, never as HTML', () => {
    const body = 'Line one\nLine two\n\n<b>not bold</b> <img src=x onerror=alert(1)>';
    render(<MessageThread messages={[message({ body })]} viewer="customer" empty="None" attachmentHref={href} />);
    const paragraph = screen.getByText((_, element) => element?.tagName === 'P' && element.textContent === body);
    expect(paragraph).toHaveClass('whitespace-pre-wrap');
    expect(paragraph.querySelector('b, img')).toBeNull();
  });

  it('links web addresses (http and https only) safely, leaving the sentence around them as text', () => {
    expect(bodyParts('See https://example.com/guide, then call.')).toEqual([
      { text: 'See ' },
      { text: 'https://example.com/guide', href: 'https://example.com/guide' },
      { text: ', then call.' },
    ]);
    expect(bodyParts('javascript:alert(1) and ftp://files.example.com')).toEqual([
      { text: 'javascript:alert(1) and ftp://files.example.com' },
    ]);
    render(
      <MessageThread
        messages={[message({ body: 'Driver: https://support.example.com/driver?id=7.' })]}
        viewer="customer"
        empty="None"
        attachmentHref={href}
      />,
    );
    const link = screen.getByRole('link', { name: 'https://support.example.com/driver?id=7' });
    expect(link).toHaveAttribute('href', 'https://support.example.com/driver?id=7');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    expect(link).toHaveAttribute('target', '_blank');
  });

  it('sets an internal note apart by more than colour: its label, a lock and a dashed border', () => {
    const thread = [
      message({ author: { kind: 'staff', name: 'Sam Ortiz' }, body: 'Public answer' }),
      message({ author: { kind: 'staff', name: 'Sam Ortiz' }, visibility: 'internal', body: 'Customer is on the old plan' }),
    ];
    render(<MessageThread messages={thread} viewer="staff" empty="None" attachmentHref={href} />);
    const [reply, note] = items();
    expect(within(note!).getByText('Internal note')).toBeInTheDocument();
    expect(note!.querySelector('svg')).not.toBeNull();
    expect(note).toHaveClass('border-dashed');
    expect(within(reply!).queryByText('Internal note')).not.toBeInTheDocument();
    expect(reply).not.toHaveClass('border-dashed');
    expect(reply!.className).not.toBe(note!.className);
  });

  it('links each attachment as a download, with its size', () => {
    const attachments = [
      {
        id: '11111111-1111-4111-8111-111111111111',
        filename: 'error screen.png',
        contentType: 'image/png' as const,
        sizeBytes: 1536 * 1024,
      },
      { id: '22222222-2222-4222-8222-222222222222', filename: 'log.txt', contentType: 'text/plain' as const, sizeBytes: 300 },
    ];
    render(<MessageThread messages={[message({ attachments })]} viewer="customer" empty="None" attachmentHref={href} />);
    const list = within(screen.getByRole('list', { name: 'Attachments' }));
    const links = list.getAllByRole('link');
    expect(links).toEqual([
      list.getByRole('link', { name: 'error screen.png (1.5 MB)' }),
      list.getByRole('link', { name: 'log.txt (300 B)' }),
    ]);
    expect(links[0]).toHaveAttribute('href', '/files/11111111-1111-4111-8111-111111111111');
    expect(links[0]).toHaveAttribute('download', 'error screen.png');
  });

  it('says when there is nothing yet', () => {
    render(<MessageThread messages={[]} viewer="customer" empty="No messages yet. Write to us below." attachmentHref={href} />);
    expect(screen.getByText('No messages yet. Write to us below.')).toBeInTheDocument();
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
  });

  it("announces a message from the other side that arrives while it is open, not the reader's own", () => {
    const first = message({ author: { kind: 'customer', name: 'Pat Lee' } });
    const view = render(<MessageThread messages={[first]} viewer="customer" empty="None" attachmentHref={href} />);
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
    const own = message({ author: { kind: 'customer', name: 'Pat Lee' } });
    view.rerender(<MessageThread messages={[first, own]} viewer="customer" empty="None" attachmentHref={href} />);
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
    const reply = message({ author: { kind: 'staff', name: 'Sam Ortiz' } });
    view.rerender(<MessageThread messages={[first, own, reply]} viewer="customer" empty="None" attachmentHref={href} />);
    expect(screen.getByRole('status')).toHaveTextContent('New message from Sam Ortiz');
  });
});

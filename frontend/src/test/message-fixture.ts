import type { TicketMessage } from '@ppr/contracts';

let next = 1;

/** A message as the API returns it: the customer's, public, written in the portal, unless overridden. */
export function message(overrides: Partial<TicketMessage> = {}): TicketMessage {
  const n = next++;
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    ticketId: 12,
    author: { kind: 'customer', name: 'Pat Lee' },
    visibility: 'public',
    via: 'portal',
    body: `Message ${n}`,
    attachments: [],
    createdAt: '2026-11-20T15:00:00.000Z',
    ...overrides,
  };
}

/** A file of this name, type and size (the size is set, not written: the limits are megabytes). */
export function fakeFile(name: string, type: string, size = 1024): File {
  const file = new File(['x'], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

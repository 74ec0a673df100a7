import { MessageSquare } from 'lucide-react';

export function unreadLabel(count: number): string {
  return `${count} new message${count === 1 ? '' : 's'}`;
}

/** "2 new messages": the other side's messages not read yet; nothing when there are none. */
export function UnreadBadge({ count, id }: { count: number; id?: string }) {
  if (count <= 0) return null;
  return (
    <span
      id={id}
      className="inline-flex items-center gap-1 whitespace-nowrap rounded-full border border-brand-700 bg-brand-700 px-2.5 py-0.5 text-xs font-semibold text-white"
    >
      <MessageSquare aria-hidden="true" className="h-3.5 w-3.5" />
      {unreadLabel(count)}
    </span>
  );
}

import type { ReactNode } from 'react';

export interface AdminTableProps {
  /** The accessible name of the scrolling region around the table. */
  label: string;
  /** The column headings, in order. */
  columns: readonly string[];
  /** Keeps each heading on one line (narrow dialogs with many columns). */
  nowrapHeadings?: boolean;
  /** Extra classes for the region, e.g. a margin. */
  className?: string;
  /** The rows (`tr` elements). */
  children: ReactNode;
}

/**
 * A table of the admin screens. It scrolls sideways inside a focusable, labelled region, so keyboard users
 * can scroll it and screen readers announce what it holds. It is positioned, so that the visually hidden text in
 * its cells (absolutely positioned) stays inside it instead of widening the page on narrow screens.
 */
export function AdminTable({ label, columns, nowrapHeadings = false, className, children }: AdminTableProps) {
  const region =
    'relative overflow-x-auto rounded-xl border border-slate-200 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-700';
  return (
    <div role="region" aria-label={label} tabIndex={0} className={className ? `${region} ${className}` : region}>
      <table className="min-w-full divide-y divide-slate-200 text-left text-sm">
        <thead className="bg-slate-50 text-slate-900">
          <tr>
            {columns.map((column) => (
              <th
                key={column}
                scope="col"
                className={nowrapHeadings ? 'whitespace-nowrap px-3 py-2 font-semibold' : 'px-3 py-2 font-semibold'}
              >
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 bg-white">{children}</tbody>
      </table>
    </div>
  );
}

import type { ReactNode } from 'react';

export interface AdminSectionProps {
  /** The heading's id; the section is labelled by it. */
  id: string;
  title: string;
  /** A line under the heading saying what the section is for. */
  intro?: string;
  children: ReactNode;
}

/** A titled card of an admin tab (Settings, Marketing, Integrations). */
export function AdminSection({ id, title, intro, children }: AdminSectionProps) {
  return (
    <section aria-labelledby={id} className="rounded-xl border border-slate-200 bg-white p-5">
      <h3 id={id} className="text-xl font-bold text-slate-900">
        {title}
      </h3>
      {intro ? <p className="mt-1 text-sm text-slate-700">{intro}</p> : null}
      <div className="mt-4">{children}</div>
    </section>
  );
}

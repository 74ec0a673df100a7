import type { ReactNode } from 'react';
import { PageHero } from './page-hero';

export interface ProseSection {
  readonly heading: string;
  readonly body: ReactNode;
}

/** A page of headed text sections: the about page and the legal pages. */
export function ProsePage({
  title,
  lead,
  sections,
  footer,
}: {
  title: string;
  lead?: string;
  sections: readonly ProseSection[];
  footer?: ReactNode;
}) {
  return (
    <>
      <PageHero title={title} {...(lead === undefined ? {} : { lead })} />
      <div className="mx-auto max-w-3xl space-y-10 px-4 py-12 sm:px-6">
        {sections.map((section) => (
          <section key={section.heading}>
            <h2 className="text-2xl font-bold text-slate-900">{section.heading}</h2>
            <div className="mt-3 space-y-3 leading-relaxed text-slate-700 [&_a]:font-semibold [&_a]:text-brand-700 [&_a]:underline [&_li]:ml-5 [&_li]:list-disc">
              {section.body}
            </div>
          </section>
        ))}
        {footer}
      </div>
    </>
  );
}

import * as Accordion from '@radix-ui/react-accordion';
import { ChevronDown } from 'lucide-react';
import type { FaqSection } from '../../../config/faq';

/** One accordion per section: Enter/Space toggles, arrow keys move between questions (Radix). */
export function FaqAccordion({ sections }: { sections: readonly FaqSection[] }) {
  return (
    <div className="space-y-12">
      {sections.map((section) => (
        <section key={section.id} aria-labelledby={`faq-${section.id}`}>
          <h2 id={`faq-${section.id}`} className="text-2xl font-bold text-slate-900">
            {section.title}
          </h2>
          <Accordion.Root type="single" collapsible className="mt-4 divide-y divide-slate-200 rounded-xl border border-slate-200">
            {section.items.map((item, index) => (
              <Accordion.Item key={item.question} value={`${section.id}-${index}`}>
                <Accordion.Header asChild>
                  <h3>
                    <Accordion.Trigger className="group flex w-full items-center justify-between gap-4 px-5 py-4 text-left font-semibold text-slate-900 hover:bg-slate-50">
                      {item.question}
                      <ChevronDown
                        aria-hidden="true"
                        className="h-5 w-5 shrink-0 text-slate-600 transition group-data-[state=open]:rotate-180"
                      />
                    </Accordion.Trigger>
                  </h3>
                </Accordion.Header>
                <Accordion.Content className="px-5 pb-5 text-slate-700">{item.answer}</Accordion.Content>
              </Accordion.Item>
            ))}
          </Accordion.Root>
        </section>
      ))}
    </div>
  );
}

import { Check } from 'lucide-react';

/** The request flow's steps: the current one is named for screen readers, the done ones are ticked. */
export function StepIndicator({ steps, current }: { steps: readonly string[]; current: number }) {
  return (
    <nav aria-label="Progress" className="mb-8">
      <ol className="flex flex-wrap items-center gap-2 sm:gap-4">
        {steps.map((label, index) => {
          const done = index < current;
          const active = index === current;
          return (
            <li key={label} className="flex items-center gap-2" aria-current={active ? 'step' : undefined}>
              <span
                className={`flex h-8 w-8 items-center justify-center rounded-full text-sm font-bold ${
                  active ? 'bg-brand-700 text-white' : done ? 'bg-green-700 text-white' : 'bg-slate-200 text-slate-800'
                }`}
              >
                {done ? <Check aria-hidden="true" className="h-4 w-4" /> : index + 1}
              </span>
              <span className={`text-sm ${active ? 'font-bold text-slate-900' : 'text-slate-700'}`}>
                {label}
                {done ? <span className="sr-only"> (completed)</span> : null}
              </span>
              {index < steps.length - 1 ? <span aria-hidden="true" className="hidden h-px w-8 bg-slate-300 sm:block" /> : null}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

import type { ServiceCategory } from '@ppr/contracts';
import { Search } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { ServiceTile } from '../../../components/service-tile';
import { filterServices } from '../lib/filter-services';

export interface ServiceSearchProps {
  readonly services: readonly ServiceCategory[];
  /** Heading level of each tile's name. */
  readonly tileHeadingLevel?: 2 | 3;
}

/** The searchable grid of service categories, with its empty state. */
export function ServiceSearch({ services, tileHeadingLevel = 3 }: ServiceSearchProps) {
  const [query, setQuery] = useState('');
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  // The prerendered page shows the box before this script runs: what a visitor typed by then is the query.
  useEffect(() => {
    const typed = input.current?.value ?? '';
    if (typed !== '') setQuery(typed);
  }, []);
  const results = filterServices(services, query);
  return (
    <div>
      <div className="relative max-w-xl">
        <label htmlFor={inputId} className="sr-only">
          Search services
        </label>
        <Search aria-hidden="true" className="pointer-events-none absolute left-3 top-1/2 h-5 w-5 -translate-y-1/2 text-slate-500" />
        <input
          ref={input}
          id={inputId}
          type="search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          placeholder="Search services..."
          className="w-full rounded-lg border border-slate-400 bg-white py-3 pl-10 pr-4 text-base text-slate-900 placeholder:text-slate-600 focus:border-brand-700"
        />
      </div>
      <p role="status" className="mt-3 text-sm text-slate-600">
        {query.trim() === '' ? `${services.length} services` : `${results.length} of ${services.length} services match “${query.trim()}”`}
      </p>
      {results.length === 0 ? (
        <div className="mt-8 rounded-xl border border-dashed border-slate-300 p-10 text-center">
          <p className="text-lg font-medium text-slate-800">No services match your search criteria</p>
          <button
            type="button"
            onClick={() => {
              setQuery('');
              // The button goes away with the empty state: focus stays in the search, not on the page.
              input.current?.focus();
            }}
            className="mt-4 rounded-lg border border-brand-700 px-4 py-2 font-semibold text-brand-700 hover:bg-brand-50"
          >
            Show all services
          </button>
        </div>
      ) : (
        <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {results.map((service) => (
            <li key={service.id}>
              <ServiceTile
                icon={service.icon}
                name={service.name}
                description={service.description}
                subtopics={service.subtopics}
                headingLevel={tileHeadingLevel}
              />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

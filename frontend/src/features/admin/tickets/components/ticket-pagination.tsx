import { ChevronLeft, ChevronRight } from 'lucide-react';
import { paginationItems } from '../../lib/pagination';

const pageButton =
  'min-w-9 rounded-lg border px-3 py-1.5 text-sm font-semibold focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-not-allowed disabled:opacity-50';

/** First, last and current±1 pages with ellipses (SPEC section 9), plus Previous and Next. */
export function TicketPagination({ page, totalPages, onPage }: { page: number; totalPages: number; onPage: (page: number) => void }) {
  if (totalPages <= 1) return null;
  return (
    <nav aria-label="Ticket pages" className="flex flex-wrap items-center gap-1.5">
      <button
        type="button"
        onClick={() => onPage(page - 1)}
        disabled={page <= 1}
        className={`${pageButton} border-slate-400 bg-white text-slate-900`}
      >
        <ChevronLeft aria-hidden="true" className="inline h-4 w-4" /> Previous
      </button>
      {paginationItems(page, totalPages).map((item) =>
        typeof item === 'number' ? (
          <button
            key={item}
            type="button"
            onClick={() => onPage(item)}
            aria-current={item === page ? 'page' : undefined}
            aria-label={`Page ${item}`}
            className={`${pageButton} ${item === page ? 'border-brand-700 bg-brand-700 text-white' : 'border-slate-400 bg-white text-slate-900'}`}
          >
            {item}
          </button>
        ) : (
          <span key={item} aria-hidden="true" className="px-1 text-slate-700">
            …
          </span>
        ),
      )}
      <button
        type="button"
        onClick={() => onPage(page + 1)}
        disabled={page >= totalPages}
        className={`${pageButton} border-slate-400 bg-white text-slate-900`}
      >
        Next <ChevronRight aria-hidden="true" className="inline h-4 w-4" />
      </button>
    </nav>
  );
}

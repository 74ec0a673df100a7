import { adminButton } from './styles';

/** Previous / "Page n of m" / Next under a short admin list; nothing when everything fits on one page. */
export function ListPager({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  if (pages <= 1) return null;
  return (
    <div className="flex items-center gap-2">
      <button type="button" className={adminButton.small} disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span className="text-sm text-slate-700">
        Page {page} of {pages}
      </span>
      <button type="button" className={adminButton.small} disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </div>
  );
}

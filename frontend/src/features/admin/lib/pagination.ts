export type PageItem = number | 'ellipsis-start' | 'ellipsis-end';

/**
 * The pages the admin list offers (SPEC section 9): the first, the last and the current one with its
 * neighbours, with an ellipsis wherever pages are left out.
 */
export function paginationItems(current: number, totalPages: number): PageItem[] {
  if (totalPages <= 0) return [];
  const page = Math.min(Math.max(1, current), totalPages);
  const wanted = new Set([1, totalPages, page - 1, page, page + 1].filter((n) => n >= 1 && n <= totalPages));
  const pages = [...wanted].sort((a, b) => a - b);
  const items: PageItem[] = [];
  pages.forEach((n, index) => {
    const previous = pages[index - 1];
    if (previous !== undefined && n - previous > 1) {
      // A gap of exactly one page shows that page: an ellipsis standing for a single number hides nothing.
      if (n - previous === 2) items.push(previous + 1);
      else items.push(index === 1 ? 'ellipsis-start' : 'ellipsis-end');
    }
    items.push(n);
  });
  return items;
}

export function totalPagesOf(total: number, limit: number): number {
  return Math.max(1, Math.ceil(total / limit));
}

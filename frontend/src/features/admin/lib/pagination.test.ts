import { describe, expect, it } from 'vitest';
import { paginationItems, totalPagesOf } from './pagination';

describe('paginationItems', () => {
  it('shows every page when there are few', () => {
    expect(paginationItems(1, 1)).toEqual([1]);
    expect(paginationItems(2, 3)).toEqual([1, 2, 3]);
    expect(paginationItems(1, 4)).toEqual([1, 2, 3, 4]);
  });

  it('shows the first, the last and the current page with its neighbours, with ellipses between', () => {
    expect(paginationItems(1, 6)).toEqual([1, 2, 'ellipsis-end', 6]);
    expect(paginationItems(6, 6)).toEqual([1, 'ellipsis-start', 5, 6]);
    expect(paginationItems(10, 20)).toEqual([1, 'ellipsis-start', 9, 10, 11, 'ellipsis-end', 20]);
  });

  it('shows a single left-out page instead of an ellipsis standing for it', () => {
    expect(paginationItems(4, 6)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(paginationItems(3, 10)).toEqual([1, 2, 3, 4, 'ellipsis-end', 10]);
  });

  it('keeps the current page within bounds and has nothing to show for no pages', () => {
    expect(paginationItems(9, 3)).toEqual([1, 2, 3]);
    expect(paginationItems(0, 5)).toEqual([1, 2, 'ellipsis-end', 5]);
    expect(paginationItems(1, 0)).toEqual([]);
  });

  it('counts pages, with one page for an empty list', () => {
    expect(totalPagesOf(60, 10)).toBe(6);
    expect(totalPagesOf(61, 10)).toBe(7);
    expect(totalPagesOf(0, 10)).toBe(1);
  });
});

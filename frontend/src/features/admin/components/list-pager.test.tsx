import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ListPager } from './list-pager';

describe('ListPager', () => {
  it('shows nothing when the list fits on one page', () => {
    const { container } = render(<ListPager page={1} pages={1} onPage={vi.fn()} />);
    expect(container).toBeEmptyDOMElement();
  });

  it('shows the page and moves one page back or forward', () => {
    const onPage = vi.fn();
    render(<ListPager page={2} pages={3} onPage={onPage} />);
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(onPage.mock.calls).toEqual([[1], [3]]);
  });

  it('disables Previous on the first page and Next on the last', () => {
    const { rerender } = render(<ListPager page={1} pages={2} onPage={vi.fn()} />);
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled();
    rerender(<ListPager page={2} pages={2} onPage={vi.fn()} />);
    expect(screen.getByRole('button', { name: 'Previous' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });
});

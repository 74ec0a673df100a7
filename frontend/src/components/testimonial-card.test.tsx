import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { starFills } from './star-rating';
import { TestimonialCard } from './testimonial-card';

function renderedStars(container: HTMLElement): (string | null)[] {
  return [...container.querySelectorAll('[data-star]')].map((star) => star.getAttribute('data-star'));
}

const author = { initials: 'MH', name: 'Margaret Hartley', title: 'Office Manager, Hartley & Soto LLP' };

describe('TestimonialCard', () => {
  it('shows five full stars for a 5 rating, with the text and the author', () => {
    const { container } = render(<TestimonialCard rating={5} text="Fixed before lunch." author={author} />);
    expect(renderedStars(container)).toEqual(['full', 'full', 'full', 'full', 'full']);
    expect(screen.getByRole('img', { name: 'Rated 5 out of 5' })).toBeInTheDocument();
    expect(screen.getByText(/Fixed before lunch\./)).toBeInTheDocument();
    expect(screen.getByText('MH')).toBeInTheDocument();
    expect(screen.getByText('Margaret Hartley')).toBeInTheDocument();
    expect(screen.getByText('Office Manager, Hartley & Soto LLP')).toBeInTheDocument();
  });

  it('shows a half star for 4.5', () => {
    const { container } = render(<TestimonialCard rating={4.5} text="Great." author={author} />);
    expect(renderedStars(container)).toEqual(['full', 'full', 'full', 'full', 'half']);
    expect(screen.getByRole('img', { name: 'Rated 4.5 out of 5' })).toBeInTheDocument();
  });

  it('shows empty stars for the missing part of the rating', () => {
    const { container } = render(<TestimonialCard rating={2.5} text="Okay." author={author} />);
    expect(renderedStars(container)).toEqual(['full', 'full', 'half', 'empty', 'empty']);
  });

  it('shows five empty stars for 0', () => {
    const { container } = render(<TestimonialCard rating={0} text="No rating." author={author} />);
    expect(renderedStars(container)).toEqual(['empty', 'empty', 'empty', 'empty', 'empty']);
  });
});

describe('starFills', () => {
  it('rounds to half stars and clamps to 0..5', () => {
    expect(starFills(3.7)).toEqual(['full', 'full', 'full', 'half', 'empty']);
    expect(starFills(3.4)).toEqual(['full', 'full', 'full', 'empty', 'empty']);
    expect(starFills(7)).toEqual(['full', 'full', 'full', 'full', 'full']);
    expect(starFills(-1)).toEqual(['empty', 'empty', 'empty', 'empty', 'empty']);
    expect(starFills(Number.NaN)).toEqual(['empty', 'empty', 'empty', 'empty', 'empty']);
  });
});

import { Star } from 'lucide-react';

export type StarFill = 'full' | 'half' | 'empty';

/** The five stars of a rating from 0 to 5: full, half (from .5 up) or empty. */
export function starFills(rating: number): StarFill[] {
  const value = Math.min(5, Math.max(0, Number.isFinite(rating) ? rating : 0));
  return [1, 2, 3, 4, 5].map((position) => {
    if (value >= position) return 'full';
    if (value >= position - 0.5) return 'half';
    return 'empty';
  });
}

export function StarRating({ rating, size = 'h-5 w-5' }: { rating: number; size?: string }) {
  const fills = starFills(rating);
  const shown = Math.min(5, Math.max(0, rating));
  return (
    <div role="img" aria-label={`Rated ${shown} out of 5`} className="flex items-center gap-0.5">
      {fills.map((fill, index) => (
        <span key={index} data-star={fill} className={`relative inline-block ${size}`}>
          <Star aria-hidden="true" className={`absolute inset-0 ${size} text-amber-500`} strokeWidth={1.5} />
          {fill !== 'empty' ? (
            <span className={`absolute inset-0 overflow-hidden ${fill === 'half' ? 'w-1/2' : 'w-full'}`}>
              <Star aria-hidden="true" className={`${size} fill-amber-500 text-amber-500`} strokeWidth={1.5} />
            </span>
          ) : null}
        </span>
      ))}
    </div>
  );
}

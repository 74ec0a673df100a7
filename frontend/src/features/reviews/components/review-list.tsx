import { BadgeCheck } from 'lucide-react';
import { StarRating } from '../../../components/star-rating';
import type { Review } from '../../../config/reviews';

export function ReviewList({ reviews }: { reviews: readonly Review[] }) {
  return (
    <ul className="grid gap-6 md:grid-cols-2">
      {reviews.map((review) => (
        <li key={`${review.name}-${review.timeAgo}`} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
          <article aria-label={`Review by ${review.name}`}>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h3 className="font-semibold text-slate-900">{review.name}</h3>
              <span className="text-sm text-slate-600">{review.timeAgo}</span>
            </div>
            <div className="mt-2 flex items-center gap-3">
              <StarRating rating={review.rating} size="h-4 w-4" />
              {review.isVerified ? (
                <span className="inline-flex items-center gap-1 text-xs font-semibold text-green-800">
                  <BadgeCheck aria-hidden="true" className="h-4 w-4" />
                  Verified Customer
                </span>
              ) : null}
            </div>
            <p className="mt-3 text-slate-700">{review.content}</p>
          </article>
        </li>
      ))}
    </ul>
  );
}

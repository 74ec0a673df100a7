import { StarRating } from './star-rating';

export interface TestimonialCardProps {
  readonly rating: number;
  readonly text: string;
  readonly author: { readonly initials: string; readonly name: string; readonly title: string };
}

export function TestimonialCard({ rating, text, author }: TestimonialCardProps) {
  return (
    <figure className="flex h-full flex-col rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <StarRating rating={rating} />
      <blockquote className="mt-4 flex-1 text-slate-700">
        <p>&ldquo;{text}&rdquo;</p>
      </blockquote>
      <figcaption className="mt-6 flex items-center gap-3">
        <span
          aria-hidden="true"
          className="flex h-10 w-10 items-center justify-center rounded-full bg-brand-800 text-sm font-semibold text-white"
        >
          {author.initials}
        </span>
        <span>
          <span className="block font-semibold text-slate-900">{author.name}</span>
          <span className="block text-sm text-slate-600">{author.title}</span>
        </span>
      </figcaption>
    </figure>
  );
}

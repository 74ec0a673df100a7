import { BUSINESS_PROFILE } from '@ppr/contracts';
import { ExternalLink } from 'lucide-react';
import { ButtonLink } from '../../components/button-link';
import { PageHero } from '../../components/page-hero';
import { StarRating } from '../../components/star-rating';
import { paths } from '../../config/paths';
import { REVIEWS, REVIEW_STATS } from '../../config/reviews';
import { ReviewList } from '../../features/reviews/components/review-list';

export default function GoogleReviewsRoute() {
  const stats = [
    { value: `${REVIEW_STATS.totalReviews}+`, label: 'Google reviews' },
    { value: REVIEW_STATS.averageRating.toFixed(1), label: 'Average rating' },
    { value: `${REVIEW_STATS.yearsInBusiness}+`, label: 'Years serving the DC area' },
  ];
  return (
    <>
      <PageHero
        title="Google Reviews"
        lead={`Rated ${REVIEW_STATS.averageRating} out of 5 from ${REVIEW_STATS.totalReviews} reviews by businesses and residents across DC, Maryland and Virginia.`}
      >
        <ButtonLink to={paths.supportRequest.getHref()} variant="accent">
          Get Your Free Quote
        </ButtonLink>
        <ButtonLink to={REVIEW_STATS.mapsListingUrl} variant="light">
          See us on Google Maps <ExternalLink aria-hidden="true" className="h-4 w-4" />
        </ButtonLink>
      </PageHero>
      <section aria-label="Review statistics" className="border-b border-slate-200 bg-slate-50">
        <dl className="mx-auto grid max-w-6xl gap-6 px-4 py-10 text-center sm:grid-cols-3 sm:px-6">
          {stats.map((stat) => (
            <div key={stat.label}>
              <dt className="text-sm font-medium text-slate-600">{stat.label}</dt>
              <dd className="mt-1 text-4xl font-bold text-brand-800">{stat.value}</dd>
            </div>
          ))}
        </dl>
        <div className="flex justify-center pb-8">
          <StarRating rating={REVIEW_STATS.averageRating} size="h-7 w-7" />
        </div>
      </section>
      <section aria-labelledby="reviews-heading" className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
        <h2 id="reviews-heading" className="mb-6 text-2xl font-bold text-slate-900">
          What customers say about {BUSINESS_PROFILE.name}
        </h2>
        <ReviewList reviews={REVIEWS} />
      </section>
      <section className="bg-brand-900 text-white">
        <div className="mx-auto max-w-6xl px-4 py-12 text-center sm:px-6">
          <h2 className="text-2xl font-bold">Join our satisfied customers</h2>
          <div className="mt-6 flex flex-wrap justify-center gap-3">
            <ButtonLink to={paths.supportRequest.getHref()} variant="accent">
              Get Free Diagnosis Today
            </ButtonLink>
            <ButtonLink to={REVIEW_STATS.mapsListingUrl} variant="light">
              Leave Us a Review
            </ButtonLink>
          </div>
        </div>
      </section>
    </>
  );
}

import { Link } from 'react-router-dom';
import { PageHero } from '../../components/page-hero';
import { FAQ_SECTIONS } from '../../config/faq';
import { paths } from '../../config/paths';
import { FaqAccordion } from '../../features/faq/components/faq-accordion';

export default function FaqRoute() {
  return (
    <>
      <PageHero
        title="Frequently Asked Questions"
        lead="Straight answers about how we work, what it costs and what to expect after you contact us."
      />
      <div className="mx-auto max-w-4xl px-4 py-12 sm:px-6">
        <FaqAccordion sections={FAQ_SECTIONS} />
        <div className="mt-12 rounded-xl bg-brand-50 p-6">
          <h2 className="text-xl font-bold text-slate-900">Still have a question?</h2>
          <p className="mt-2 text-slate-700">
            Our team answers messages within the hour during business hours.{' '}
            <Link to={paths.contact.getHref()} className="font-semibold text-brand-700 underline">
              Contact Us
            </Link>
          </p>
        </div>
      </div>
    </>
  );
}

import { SERVICE_CATEGORIES } from '@ppr/contracts';
import { ButtonLink } from '../../components/button-link';
import { PageHero } from '../../components/page-hero';
import { paths } from '../../config/paths';
import { ServiceSearch } from '../../features/services/components/service-search';

export default function ServicesRoute() {
  return (
    <>
      <PageHero
        title="IT Support Services"
        lead="Nine practice areas covering the systems DC-area businesses run on. Every engagement starts with a diagnosis, so you know the price before the work begins."
      />
      <section aria-label="Service catalogue" className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
        <ServiceSearch services={SERVICE_CATEGORIES} tileHeadingLevel={2} />
      </section>
      <section className="bg-slate-50">
        <div className="mx-auto flex max-w-6xl flex-col items-start gap-4 px-4 py-12 sm:px-6 md:flex-row md:items-center md:justify-between">
          <div>
            <h2 className="text-2xl font-bold text-slate-900">Not sure which service you need?</h2>
            <p className="mt-2 text-slate-700">Describe the problem in your own words and we will route it to the right engineer.</p>
          </div>
          <div className="flex flex-wrap gap-3">
            <ButtonLink to={paths.supportRequest.getHref()}>Submit a Support Request</ButtonLink>
            <ButtonLink to={paths.contact.getHref()} variant="outline">
              Contact Us
            </ButtonLink>
          </div>
        </div>
      </section>
    </>
  );
}

import { SERVICE_CATEGORIES } from '@ppr/contracts';
import { ButtonLink } from '../../components/button-link';
import { NotFoundContent } from '../../components/not-found-content';
import { PageHero } from '../../components/page-hero';
import { regionalPageTitle } from '../../config/areas';
import { paths, type RoutePageProps } from '../../config/paths';
import { RepairCards } from '../../features/regional/components/repair-cards';
import { ServiceSearch } from '../../features/services/components/service-search';

/** /{area}/services: the route table generates one route per service area and hands it the area. */
export default function RegionalServicesRoute({ route }: RoutePageProps) {
  if (route.kind !== 'regional') return <NotFoundContent />;
  const { area } = route;
  const repair = area.variant === 'computer-repair';
  return (
    <>
      <PageHero title={regionalPageTitle(area)} lead={area.description} />
      {repair ? <RepairCards place={area.name} /> : null}
      <section aria-labelledby="catalogue-heading" className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
        <h2 id="catalogue-heading" className="mb-6 text-2xl font-bold text-slate-900">
          {repair ? `Business IT services in ${area.name}` : `Services available in ${area.name}`}
        </h2>
        <ServiceSearch services={SERVICE_CATEGORIES} />
      </section>
      <section className="bg-slate-50">
        <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
          <h2 className="text-2xl font-bold text-slate-900">Need help in {area.name} today?</h2>
          <p className="mt-2 max-w-2xl text-slate-700">
            Remote sessions start within the hour, and onsite visits across {area.fullName} are usually scheduled within 24-48 hours.
          </p>
          <div className="mt-6 flex flex-wrap gap-3">
            <ButtonLink to={paths.supportRequest.getHref()}>{repair ? 'Request Computer Repair' : 'Submit a Support Request'}</ButtonLink>
            <ButtonLink to={paths.contact.getHref()} variant="outline">
              Contact Us
            </ButtonLink>
          </div>
        </div>
      </section>
    </>
  );
}

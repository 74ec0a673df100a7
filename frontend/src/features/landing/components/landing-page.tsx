import { BUSINESS_PROFILE } from '@ppr/contracts';
import { Check, Clock, MapPin, Phone } from 'lucide-react';
import { ButtonLink } from '../../../components/button-link';
import { landingPageTitle, type LandingLocation } from '../../../config/landing-locations';
import { paths } from '../../../config/paths';
import { BUSINESS_TYPES, landingServiceCards, whyChooseItems } from '../config/landing-content';

export function LandingPage({ location }: { location: LandingLocation }) {
  const place = location.name;
  return (
    <>
      <section className="bg-gradient-to-br from-brand-900 to-brand-700 text-white">
        <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 lg:py-20">
          <p className="text-sm font-semibold uppercase tracking-wider text-amber-300">{location.region}</p>
          <h1 className="mt-3 max-w-3xl text-4xl font-bold tracking-tight sm:text-5xl">{landingPageTitle(location)}</h1>
          <p className="mt-5 max-w-2xl text-lg text-blue-100">{location.description}</p>
          <div className="mt-8 flex flex-wrap gap-3">
            <ButtonLink to={paths.supportRequest.getHref()} variant="accent">
              Get Free Quote
            </ButtonLink>
            <ButtonLink to={`tel:${BUSINESS_PROFILE.phoneE164}`} variant="light">
              <Phone aria-hidden="true" className="h-5 w-5" />
              Call {BUSINESS_PROFILE.phone}
            </ButtonLink>
          </div>
        </div>
      </section>
      <p className="bg-amber-400 px-4 py-3 text-center font-semibold text-slate-950">
        Same-Day Service Available • Free Diagnostics • All Brands Serviced
      </p>

      <section aria-labelledby="areas-heading" className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
        <h2 id="areas-heading" className="text-2xl font-bold text-slate-900">
          Service areas around {place}
        </h2>
        <p className="mt-2 flex items-center gap-2 text-slate-700">
          <Clock aria-hidden="true" className="h-5 w-5 text-brand-700" />
          Typical drive time from our {BUSINESS_PROFILE.address.city} office: {location.driveTime} minutes
        </p>
        <ul className="mt-6 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {location.serviceAreas.map((area) => (
            <li key={area} className="flex items-center justify-between gap-3 rounded-lg border border-slate-200 px-4 py-3">
              <span className="flex items-center gap-2 font-medium text-slate-900">
                <MapPin aria-hidden="true" className="h-4 w-4 text-brand-700" />
                {area}
              </span>
              <span className="text-sm text-slate-600">{location.driveTime} min</span>
            </li>
          ))}
        </ul>
        <p className="mt-4 text-sm text-slate-600">ZIP codes served include {location.zipCodes.join(', ')}.</p>
      </section>

      <section aria-labelledby="landing-services-heading" className="bg-slate-50">
        <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
          <h2 id="landing-services-heading" className="text-2xl font-bold text-slate-900">
            Computer repair services in {place}
          </h2>
          <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {landingServiceCards(place).map((card) => (
              <li key={card.title} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
                <h3 className="text-lg font-semibold text-slate-900">{card.title}</h3>
                <p className="mt-2 text-sm text-slate-700">{card.description}</p>
                <ul className="mt-4 space-y-1.5 text-sm text-slate-700">
                  {card.features.map((feature) => (
                    <li key={feature} className="flex gap-2">
                      <Check aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0 text-green-700" />
                      {feature}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="why-heading" className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
        <h2 id="why-heading" className="text-2xl font-bold text-slate-900">
          Why {place} chooses {BUSINESS_PROFILE.name}
        </h2>
        <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {whyChooseItems(place).map((item) => (
            <li key={item.title}>
              <h3 className="font-semibold text-slate-900">{item.title}</h3>
              <p className="mt-1 text-sm text-slate-700">{item.description}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="business-types-heading" className="bg-slate-50">
        <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
          <h2 id="business-types-heading" className="text-2xl font-bold text-slate-900">
            Businesses we serve in {place}
          </h2>
          <ul className="mt-6 grid grid-cols-2 gap-3 md:grid-cols-3 lg:grid-cols-4">
            {BUSINESS_TYPES.map((type) => (
              <li key={type} className="rounded-lg bg-white px-4 py-3 text-sm font-medium text-slate-800 shadow-sm">
                {type}
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="ready-heading" className="bg-brand-900 text-white">
        <div className="mx-auto max-w-6xl px-4 py-14 text-center sm:px-6">
          <h2 id="ready-heading" className="text-3xl font-bold">
            Ready to Fix Your Computer?
          </h2>
          <p className="mx-auto mt-3 max-w-2xl text-blue-100">
            Tell us what is wrong and a certified technician serving {place} will contact you within the hour.
          </p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            <ButtonLink to={paths.supportRequest.getHref()} variant="accent">
              Schedule Repair Service
            </ButtonLink>
            <ButtonLink to={`tel:${BUSINESS_PROFILE.phoneE164}`} variant="light">
              Call {BUSINESS_PROFILE.phone}
            </ButtonLink>
          </div>
        </div>
      </section>
    </>
  );
}

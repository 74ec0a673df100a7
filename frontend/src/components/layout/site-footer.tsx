import { BUSINESS_PROFILE, formatAddress } from '@ppr/contracts';
import { Link } from 'react-router-dom';
import { LANDING_LOCATIONS, landingPageTitle } from '../../config/landing-locations';
import { paths } from '../../config/paths';
import { useHydrated } from '../../lib/use-hydrated';

const COLUMNS: readonly { readonly title: string; readonly links: readonly { readonly label: string; readonly to: string }[] }[] = [
  {
    title: 'Company',
    links: [
      { label: 'About Us', to: paths.about.getHref() },
      { label: 'Services', to: paths.services.getHref() },
      { label: 'Google Reviews', to: paths.reviews.getHref() },
      { label: 'Contact', to: paths.contact.getHref() },
      { label: 'FAQ', to: paths.faq.getHref() },
    ],
  },
  {
    title: 'Support',
    links: [
      { label: 'Request IT Support', to: paths.supportRequestSteps.getHref() },
      { label: 'My Account', to: paths.customerLogin.getHref() },
      { label: 'Refund Policy', to: paths.refundPolicy.getHref() },
      { label: 'Terms of Service', to: paths.terms.getHref() },
      { label: 'Privacy Policy', to: paths.privacy.getHref() },
    ],
  },
  {
    title: 'Computer Repair',
    links: LANDING_LOCATIONS.map((location) => ({
      label: landingPageTitle(location).replace('Computer Repair in ', ''),
      to: paths.landing.getHref(location.slug),
    })),
  },
];

/**
 * This year. A prerendered page carries the year it was built in, and a browser opening it in a later year
 * would not match it while hydrating (React then drops the page's HTML and renders it again): the prerendered
 * text is kept while hydrating, and the span is replaced by one with this year's once hydrated.
 */
function CurrentYear() {
  const hydrated = useHydrated();
  return (
    <span key={hydrated ? 'now' : 'prerendered'} suppressHydrationWarning>
      {new Date().getFullYear()}
    </span>
  );
}

export function SiteFooter() {
  return (
    <footer className="bg-slate-900 text-slate-200">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-2 lg:grid-cols-5">
        <div className="lg:col-span-2">
          <p className="text-lg font-bold text-white">{BUSINESS_PROFILE.name}</p>
          <p className="mt-2 text-sm text-slate-300">
            IT support and computer repair for businesses and homes in {BUSINESS_PROFILE.serviceArea.join(', ')}.
          </p>
          <address className="mt-4 text-sm not-italic text-slate-300">
            {formatAddress()}
            <br />
            <a className="underline hover:text-white" href={`tel:${BUSINESS_PROFILE.phoneE164}`}>
              {BUSINESS_PROFILE.phone}
            </a>
            <br />
            <a className="underline hover:text-white" href={`mailto:${BUSINESS_PROFILE.email}`}>
              {BUSINESS_PROFILE.email}
            </a>
          </address>
          <h2 className="mt-6 text-sm font-semibold uppercase tracking-wide text-white">Business Hours</h2>
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm text-slate-300">
            {BUSINESS_PROFILE.hours.map((hours) => (
              <div key={hours.days} className="contents">
                <dt>{hours.days}</dt>
                <dd>
                  {hours.opens}-{hours.closes}
                </dd>
              </div>
            ))}
          </dl>
        </div>
        {COLUMNS.map((column) => (
          <nav key={column.title} aria-label={column.title}>
            <h2 className="text-sm font-semibold uppercase tracking-wide text-white">{column.title}</h2>
            <ul className="mt-3 space-y-2 text-sm">
              {column.links.map((link) => (
                <li key={link.to}>
                  <Link to={link.to} className="text-slate-300 hover:text-white hover:underline">
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-slate-800">
        <p className="mx-auto max-w-6xl px-4 py-6 text-sm text-slate-400 sm:px-6">
          &copy; <CurrentYear /> {BUSINESS_PROFILE.name}. All rights reserved. {BUSINESS_PROFILE.responsePromise}
        </p>
      </div>
    </footer>
  );
}

import { BUSINESS_PROFILE } from '@ppr/contracts';
import { useLocation } from 'react-router-dom';
import { ButtonLink } from '../../components/button-link';
import { paths } from '../../config/paths';

function headingFor(pathname: string): { title: string; text: string } {
  if (pathname.startsWith('/admin')) {
    return { title: 'Admin portal', text: 'The admin portal opens shortly.' };
  }
  if (pathname.startsWith('/customer') || pathname.startsWith('/ticket')) {
    return { title: 'My Account', text: 'Customer accounts and online ticket tracking open shortly.' };
  }
  return { title: 'Request IT Support', text: 'Online support requests open shortly.' };
}

/** Placeholder for the request, payment, account and admin screens, which a later release builds. */
export default function ComingSoonRoute() {
  const { pathname } = useLocation();
  const { title, text } = headingFor(pathname);
  return (
    <section className="mx-auto max-w-3xl px-4 py-20 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">{title}</h1>
      <p className="mt-4 text-lg text-slate-700">
        {text} Call{' '}
        <a href={`tel:${BUSINESS_PROFILE.phoneE164}`} className="font-semibold text-brand-700 underline">
          {BUSINESS_PROFILE.phone}
        </a>{' '}
        and a Systems Engineer will help you right away, or send us a message and we will get back to you within 1 hour during business
        hours.
      </p>
      <div className="mt-8 flex flex-wrap gap-3">
        <ButtonLink to={`tel:${BUSINESS_PROFILE.phoneE164}`}>Call {BUSINESS_PROFILE.phone}</ButtonLink>
        <ButtonLink to={paths.contact.getHref()} variant="outline">
          Contact Us
        </ButtonLink>
      </div>
    </section>
  );
}

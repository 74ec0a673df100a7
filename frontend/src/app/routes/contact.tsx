import { BUSINESS_PROFILE, formatAddress } from '@ppr/contracts';
import { Clock, Mail, MapPin, Phone, Siren } from 'lucide-react';
import { MapEmbed } from '../../components/map-embed';
import { PageHero } from '../../components/page-hero';
import { ContactForm } from '../../features/contact/components/contact-form';

export default function ContactRoute() {
  return (
    <>
      <PageHero
        title="Contact Us"
        lead="Questions about a repair, a quote for a project or help choosing a service: send us a message or call, and we will answer within the hour during business hours."
      />
      <div className="mx-auto grid max-w-6xl gap-12 px-4 py-12 sm:px-6 lg:grid-cols-[3fr_2fr]">
        <section aria-labelledby="form-heading">
          <h2 id="form-heading" className="mb-6 text-2xl font-bold text-slate-900">
            Send us a message
          </h2>
          <ContactForm />
        </section>
        <aside className="space-y-8" aria-label="Contact details">
          <div>
            <h2 className="text-2xl font-bold text-slate-900">Contact details</h2>
            <ul className="mt-4 space-y-3 text-slate-700">
              <li className="flex gap-3">
                <Phone aria-hidden="true" className="h-5 w-5 text-brand-700" />
                <a href={`tel:${BUSINESS_PROFILE.phoneE164}`} className="font-semibold text-brand-700 underline">
                  {BUSINESS_PROFILE.phone}
                </a>
              </li>
              <li className="flex gap-3">
                <Mail aria-hidden="true" className="h-5 w-5 text-brand-700" />
                <a href={`mailto:${BUSINESS_PROFILE.email}`} className="font-semibold text-brand-700 underline [overflow-wrap:anywhere]">
                  {BUSINESS_PROFILE.email}
                </a>
              </li>
              <li className="flex gap-3">
                <MapPin aria-hidden="true" className="h-5 w-5 text-brand-700" />
                <span>{formatAddress()}</span>
              </li>
            </ul>
          </div>
          <div>
            <h2 className="flex items-center gap-2 text-xl font-bold text-slate-900">
              <Clock aria-hidden="true" className="h-5 w-5 text-brand-700" />
              Business hours
            </h2>
            <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-6 gap-y-1 text-slate-700">
              {BUSINESS_PROFILE.hours.map((hours) => (
                <div key={hours.days} className="contents">
                  <dt className="font-medium">{hours.days}</dt>
                  <dd>
                    {hours.opens}-{hours.closes}
                  </dd>
                </div>
              ))}
            </dl>
          </div>
          <div className="rounded-xl border border-red-200 bg-red-50 p-5">
            <h2 className="flex items-center gap-2 text-lg font-bold text-red-800">
              <Siren aria-hidden="true" className="h-5 w-5" />
              Emergency line
            </h2>
            <p className="mt-2 text-sm text-slate-800">
              Server down, ransomware on screen or the whole office offline? Call our emergency line for after-hours help:{' '}
              <a
                href={`tel:${BUSINESS_PROFILE.emergencyPhone.replace(/[^0-9]/g, '').replace(/^/, '+1')}`}
                className="font-semibold text-red-800 underline"
              >
                {BUSINESS_PROFILE.emergencyPhone}
              </a>
            </p>
          </div>
        </aside>
      </div>
      <section aria-label="Map" className="mx-auto max-w-6xl px-4 pb-16 sm:px-6">
        <MapEmbed />
      </section>
    </>
  );
}

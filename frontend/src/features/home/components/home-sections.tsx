import { BUSINESS_PROFILE, DIAGNOSTIC_FEE_CENTS, SERVICE_CATEGORIES, formatAddress, formatUsd } from '@ppr/contracts';
import { Award, Clock, MapPin, Phone, ShieldCheck, Zap } from 'lucide-react';
import { Link } from 'react-router-dom';
import { EngineerDeskImage } from '../../../components/engineer-desk-image';
import { ButtonLink } from '../../../components/button-link';
import { MapEmbed } from '../../../components/map-embed';
import { ServiceTile } from '../../../components/service-tile';
import { TestimonialCard } from '../../../components/testimonial-card';
import { paths } from '../../../config/paths';
import { TESTIMONIALS } from '../../../config/testimonials';

const fee = formatUsd(DIAGNOSTIC_FEE_CENTS);

export function HomeHero() {
  return (
    <section className="bg-gradient-to-br from-brand-900 to-brand-700 text-white">
      <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 lg:py-24">
        <p className="text-sm font-semibold uppercase tracking-wider text-amber-300">Maryland · Virginia · Washington, DC</p>
        <h1 className="mt-3 max-w-3xl text-4xl font-bold tracking-tight sm:text-5xl">
          IT support and computer repair that answers within the hour
        </h1>
        <p className="mt-5 max-w-2xl text-lg text-blue-100">
          Certified Systems Engineers fix Windows, network, email and security problems for businesses across the DC area, remotely or at
          your desk. {BUSINESS_PROFILE.responsePromise}
        </p>
        <div className="mt-8 flex flex-wrap gap-3">
          <ButtonLink to={paths.supportRequestSteps.getHref()} variant="accent">
            Request IT Support
          </ButtonLink>
          <ButtonLink to={paths.services.getHref()} variant="light">
            Explore Services
          </ButtonLink>
        </div>
      </div>
    </section>
  );
}

export function ContactStrip() {
  const items = [
    { icon: Phone, label: 'Call us', value: BUSINESS_PROFILE.phone, href: `tel:${BUSINESS_PROFILE.phoneE164}` },
    { icon: Clock, label: 'Open 7 days', value: BUSINESS_PROFILE.hours.map((h) => `${h.days} ${h.opens}-${h.closes}`).join(' · ') },
    { icon: MapPin, label: 'Office', value: formatAddress() },
  ];
  return (
    <section aria-label="Contact details" className="border-b border-slate-200 bg-slate-50">
      <ul className="mx-auto grid max-w-6xl gap-4 px-4 py-6 sm:px-6 md:grid-cols-3">
        {items.map(({ icon: Icon, label, value, href }) => (
          <li key={label} className="flex items-start gap-3">
            <Icon aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" />
            <span>
              <span className="block text-sm font-semibold text-slate-900">{label}</span>
              {href ? (
                <a href={href} className="text-sm text-brand-700 underline">
                  {value}
                </a>
              ) : (
                <span className="text-sm text-slate-700">{value}</span>
              )}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

const CLIENTS = [
  'Hartley & Soto LLP',
  'Capital Area Dental Group',
  'Ridgeline Federal Solutions',
  'Chesapeake Nonprofit Alliance',
  'Clarendon Creative Studio',
  'Potomac Yard Property Management',
];

export function TrustedBy() {
  return (
    <section aria-labelledby="trusted-heading" className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <h2 id="trusted-heading" className="text-center text-sm font-semibold uppercase tracking-wider text-slate-600">
        Trusted by law firms, practices, contractors and nonprofits across the region
      </h2>
      <ul className="mt-6 grid grid-cols-2 gap-4 text-center md:grid-cols-3 lg:grid-cols-6">
        {CLIENTS.map((client) => (
          <li key={client} className="rounded-lg border border-slate-200 px-3 py-4 text-sm font-semibold text-slate-700">
            {client}
          </li>
        ))}
      </ul>
    </section>
  );
}

const REASONS = [
  {
    icon: Award,
    title: 'Certified Systems Engineers',
    text: 'Microsoft-certified engineers with more than 12 years of work in DC-area businesses and government contractors. Security-cleared staff are available in DC.',
  },
  {
    icon: Zap,
    title: 'Response within 1 hour',
    text: 'Submit a request and an engineer contacts you immediately or within 1 hour, with remote sessions starting the same day and onsite visits within 24-48 hours.',
  },
  {
    icon: ShieldCheck,
    title: `${fee} diagnostic, credited`,
    text: `One upfront ${fee} diagnostic fee that is credited toward your final bill once the issue is resolved. You hear the price before any further work begins.`,
  },
];

export function WhyChooseUs() {
  return (
    <section aria-labelledby="why-heading" className="bg-slate-50">
      <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-16 sm:px-6 lg:grid-cols-2">
        <div>
          <h2 id="why-heading" className="text-3xl font-bold tracking-tight text-slate-900">
            Why businesses choose {BUSINESS_PROFILE.name}
          </h2>
          <ul className="mt-8 space-y-6">
            {REASONS.map(({ icon: Icon, title, text }) => (
              <li key={title} className="flex gap-4">
                <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-lg bg-brand-700 text-white">
                  <Icon aria-hidden="true" className="h-6 w-6" />
                </span>
                <div>
                  <h3 className="text-lg font-semibold text-slate-900">{title}</h3>
                  <p className="mt-1 text-slate-700">{text}</p>
                </div>
              </li>
            ))}
          </ul>
        </div>
        <EngineerDeskImage className="mx-auto h-auto w-full max-w-md" />
      </div>
    </section>
  );
}

export function ServiceGrid() {
  return (
    <section aria-labelledby="services-heading" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2 id="services-heading" className="text-3xl font-bold tracking-tight text-slate-900">
            Our services
          </h2>
          <p className="mt-2 max-w-2xl text-slate-700">
            Nine areas of expertise, from a single slow laptop to a domain-wide security hardening project.
          </p>
        </div>
        <Link to={paths.services.getHref()} className="font-semibold text-brand-700 underline">
          See all services and search
        </Link>
      </div>
      <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {SERVICE_CATEGORIES.map((category) => (
          <li key={category.id}>
            <ServiceTile icon={category.icon} name={category.name} description={category.description} subtopics={category.subtopics} />
          </li>
        ))}
      </ul>
    </section>
  );
}

export function Testimonials() {
  return (
    <section aria-labelledby="testimonials-heading" className="bg-brand-50">
      <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
        <h2 id="testimonials-heading" className="text-3xl font-bold tracking-tight text-slate-900">
          What our clients say
        </h2>
        <ul className="mt-8 grid gap-6 md:grid-cols-3">
          {TESTIMONIALS.map((testimonial) => (
            <li key={testimonial.id}>
              <TestimonialCard rating={testimonial.rating} text={testimonial.text} author={testimonial.author} />
            </li>
          ))}
        </ul>
        <p className="mt-6">
          <Link to={paths.reviews.getHref()} className="font-semibold text-brand-700 underline">
            Read all 127 Google reviews
          </Link>
        </p>
      </div>
    </section>
  );
}

export function HomeContact() {
  return (
    <section aria-labelledby="contact-heading" className="mx-auto grid max-w-6xl gap-10 px-4 py-16 sm:px-6 lg:grid-cols-2">
      <div>
        <h2 id="contact-heading" className="text-3xl font-bold tracking-tight text-slate-900">
          Get help today
        </h2>
        <p className="mt-4 text-slate-700">
          Tell us what is wrong and a Systems Engineer will contact you immediately or within 1 hour. The {fee} diagnostic fee is collected
          upfront and credited toward your final bill; read our{' '}
          <Link to={paths.refundPolicy.getHref()} className="font-semibold text-brand-700 underline">
            refund policy
          </Link>{' '}
          for the details.
        </p>
        <ul className="mt-6 space-y-2 text-slate-700">
          <li>
            Phone:{' '}
            <a href={`tel:${BUSINESS_PROFILE.phoneE164}`} className="font-semibold text-brand-700 underline">
              {BUSINESS_PROFILE.phone}
            </a>
          </li>
          <li>
            Email:{' '}
            <a href={`mailto:${BUSINESS_PROFILE.email}`} className="font-semibold text-brand-700 underline">
              {BUSINESS_PROFILE.email}
            </a>
          </li>
          <li>Office: {formatAddress()}</li>
        </ul>
        <div className="mt-8 flex flex-wrap gap-3">
          <ButtonLink to={paths.supportRequest.getHref()}>Submit a Support Request</ButtonLink>
          <ButtonLink to={paths.contact.getHref()} variant="outline">
            Send Us a Message
          </ButtonLink>
        </div>
      </div>
      <MapEmbed />
    </section>
  );
}

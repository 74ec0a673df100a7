import { BUSINESS_PROFILE, type BusinessProfile } from '@ppr/contracts';

const DAY_CODES: Readonly<Record<string, string>> = { Mon: 'Mo', Tue: 'Tu', Wed: 'We', Thu: 'Th', Fri: 'Fr', Sat: 'Sa', Sun: 'Su' };

/** "9AM" -> "09:00", "9PM" -> "21:00". */
export function to24h(time: string): string {
  const match = /^(\d{1,2})(?::(\d{2}))?\s*(AM|PM)$/i.exec(time.trim());
  if (!match) return time;
  let hours = Number(match[1]) % 12;
  if (match[3]?.toUpperCase() === 'PM') hours += 12;
  return `${String(hours).padStart(2, '0')}:${match[2] ?? '00'}`;
}

/** schema.org opening hours, e.g. "Mo-Fr 09:00-21:00". */
export function openingHours(profile: BusinessProfile = BUSINESS_PROFILE): string[] {
  return profile.hours.map((h) => {
    const days = h.days.replace(/[A-Z][a-z]{2}/g, (day) => DAY_CODES[day] ?? day);
    return `${days} ${to24h(h.opens)}-${to24h(h.closes)}`;
  });
}

/** The LocalBusiness description search engines read from every indexed page. */
export function localBusinessJsonLd(profile: BusinessProfile = BUSINESS_PROFILE): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'ComputerRepair',
    name: profile.name,
    url: profile.siteUrl,
    telephone: profile.phoneE164,
    email: profile.email,
    address: {
      '@type': 'PostalAddress',
      streetAddress: profile.address.street,
      addressLocality: profile.address.city,
      addressRegion: profile.address.region,
      postalCode: profile.address.postalCode,
      addressCountry: profile.address.country,
    },
    openingHours: openingHours(profile),
    areaServed: profile.serviceArea,
    priceRange: '$$',
  };
}

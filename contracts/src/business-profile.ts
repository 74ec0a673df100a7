/**
 * The business profile: the one place for the name, phone, address, hours and service area
 * shown on pages, in emails and in structured data.
 */
export interface BusinessHours {
  readonly days: string;
  readonly opens: string;
  readonly closes: string;
}

export interface BusinessProfile {
  readonly name: string;
  readonly shortName: string;
  readonly referencePrefix: string;
  readonly phone: string;
  /** The phone number in E.164 form, for tel: links. */
  readonly phoneE164: string;
  readonly emergencyPhone: string;
  readonly email: string;
  readonly address: {
    readonly street: string;
    readonly city: string;
    readonly region: string;
    readonly postalCode: string;
    readonly country: string;
  };
  readonly hours: readonly BusinessHours[];
  readonly serviceArea: readonly string[];
  readonly responsePromise: string;
  readonly siteUrl: string;
}

export const BUSINESS_PROFILE: BusinessProfile = {
  name: 'Potomac PC Repair',
  shortName: 'Potomac PC',
  referencePrefix: 'PPR',
  phone: '(703) 555-0148',
  phoneE164: '+17035550148',
  emergencyPhone: '(703) 555-0199',
  email: 'support@potomacpcrepair.com',
  address: {
    street: '2200 Wilson Blvd, Suite 102',
    city: 'Arlington',
    region: 'VA',
    postalCode: '22201',
    country: 'US',
  },
  hours: [
    { days: 'Mon-Fri', opens: '9AM', closes: '9PM' },
    { days: 'Sat', opens: '10AM', closes: '9PM' },
    { days: 'Sun', opens: '11AM', closes: '6PM' },
  ],
  serviceArea: ['Maryland', 'Virginia', 'Washington, DC'],
  responsePromise: 'A Systems Engineer contacts you immediately or within 1 hour.',
  siteUrl: 'https://www.potomacpcrepair.com',
};

export function formatAddress(profile: BusinessProfile = BUSINESS_PROFILE): string {
  const a = profile.address;
  return `${a.street}, ${a.city}, ${a.region} ${a.postalCode}`;
}

/** The nine computer-repair landing pages, /computer-repair-{slug}. Drive times: SPEC section 9. */
export interface LandingLocation {
  readonly slug: string;
  readonly name: string;
  readonly fullName: string;
  readonly city: string;
  readonly state: 'DC' | 'VA' | 'MD';
  readonly region: string;
  readonly zipCodes: readonly string[];
  /** Typical drive time from the Arlington office, in minutes. */
  readonly driveTime: string;
  /** Neighbourhoods and towns covered from this page. */
  readonly serviceAreas: readonly string[];
  readonly description: string;
  readonly metaDescription: string;
}

export const LANDING_LOCATIONS: readonly LandingLocation[] = [
  {
    slug: 'washington-dc',
    name: 'Washington DC',
    fullName: 'Washington, DC',
    city: 'Washington',
    state: 'DC',
    region: 'District of Columbia',
    zipCodes: ['20001', '20002', '20003', '20005', '20006', '20007', '20009', '20036', '20037'],
    driveTime: '15-25',
    serviceAreas: ['Downtown & K Street', 'Capitol Hill', 'Dupont Circle', 'Georgetown', 'Navy Yard', 'Foggy Bottom'],
    description:
      'Onsite and remote computer repair for DC offices and residents. Security-cleared technicians for government and contractor workspaces, and fast fixes for the laptops and desktops your day depends on.',
    metaDescription:
      'Computer repair in Washington, DC: same-day laptop and desktop repair, virus removal and data recovery. Free diagnostics, all brands, security-cleared technicians.',
  },
  {
    slug: 'northern-virginia',
    name: 'Northern Virginia',
    fullName: 'Northern Virginia',
    city: 'Arlington',
    state: 'VA',
    region: 'Northern Virginia',
    zipCodes: ['22201', '22203', '22314', '22030', '22031', '22101', '22102', '22180', '22046'],
    driveTime: '10-30',
    serviceAreas: ['Arlington', 'Alexandria', 'Fairfax', 'McLean', 'Falls Church', 'Vienna'],
    description:
      'Our home turf. From our Arlington office we reach most of Northern Virginia in half an hour, repairing business and home computers of every brand, often the same day.',
    metaDescription:
      'Northern Virginia computer repair from a local Arlington team: same-day laptop, desktop and network repair, virus removal and data recovery. Free diagnostics.',
  },
  {
    slug: 'fairfax',
    name: 'Fairfax',
    fullName: 'Fairfax, Virginia',
    city: 'Fairfax',
    state: 'VA',
    region: 'Fairfax County',
    zipCodes: ['22030', '22031', '22032', '22033', '22015', '22020', '22120'],
    driveTime: '15-25',
    serviceAreas: ['Fairfax City', 'Fair Lakes', 'Burke', 'Chantilly', 'Oakton', 'Centreville'],
    description:
      'Computer repair for Fairfax homes, small businesses and government contractors: broken screens, failing drives, malware and slow PCs, fixed by certified technicians.',
    metaDescription:
      'Fairfax, VA computer repair: same-day laptop and desktop repair, malware removal, data recovery and business IT support. Free diagnostics, all brands serviced.',
  },
  {
    slug: 'alexandria',
    name: 'Alexandria',
    fullName: 'Alexandria, Virginia',
    city: 'Alexandria',
    state: 'VA',
    region: 'City of Alexandria',
    zipCodes: ['22301', '22302', '22304', '22305', '22311', '22314'],
    driveTime: '20-30',
    serviceAreas: ['Old Town', 'Del Ray', 'Carlyle', 'Kingstowne', 'West End', 'Potomac Yard'],
    description:
      'Alexandria computer repair for shops in Old Town, offices in Carlyle and homes across the city. We come to you or fix it remotely, whichever is faster.',
    metaDescription:
      'Alexandria, VA computer repair: laptop and desktop repair, virus removal, Wi-Fi fixes and data recovery in Old Town, Del Ray and beyond. Free diagnostics.',
  },
  {
    slug: 'arlington',
    name: 'Arlington',
    fullName: 'Arlington, Virginia',
    city: 'Arlington',
    state: 'VA',
    region: 'Arlington County',
    zipCodes: ['22201', '22202', '22203', '22204', '22205', '22206', '22207', '22209'],
    driveTime: '10-20',
    serviceAreas: ['Rosslyn', 'Clarendon', 'Ballston', 'Crystal City', 'Pentagon City', 'Shirlington'],
    description:
      'Our office is right here on Wilson Boulevard. Arlington businesses and residents get the fastest onsite visits we offer, and walk-in drop-offs by appointment.',
    metaDescription:
      'Arlington, VA computer repair from a local shop on Wilson Blvd: same-day laptop and desktop repair, virus removal, data recovery. Free diagnostics, all brands.',
  },
  {
    slug: 'loudoun-county',
    name: 'Loudoun County',
    fullName: 'Loudoun County, Virginia',
    city: 'Leesburg',
    state: 'VA',
    region: 'Loudoun County',
    zipCodes: ['20147', '20148', '20164', '20165', '20175', '20176', '20132'],
    driveTime: '25-45',
    serviceAreas: ['Ashburn', 'Leesburg', 'Sterling', 'Purcellville', 'Brambleton', 'South Riding'],
    description:
      'Computer repair across Loudoun County, from data-center Ashburn to historic Leesburg. Remote fixes start within the hour; onsite visits are scheduled the same or next day.',
    metaDescription:
      'Loudoun County computer repair in Ashburn, Leesburg and Sterling: laptop and desktop repair, virus removal, data recovery and networks. Free diagnostics.',
  },
  {
    slug: 'prince-william',
    name: 'Prince William',
    fullName: 'Prince William County, Virginia',
    city: 'Woodbridge',
    state: 'VA',
    region: 'Prince William County',
    zipCodes: ['22191', '22192', '22193', '20109', '20110', '20155', '22026'],
    driveTime: '30-50',
    serviceAreas: ['Woodbridge', 'Manassas', 'Gainesville', 'Dumfries', 'Haymarket', 'Lake Ridge'],
    description:
      'Prince William County homes and businesses get certified computer repair without the drive to DC: remote sessions first, and onsite visits when hardware needs hands.',
    metaDescription:
      'Prince William County computer repair in Woodbridge, Manassas and Gainesville: laptop and desktop repair, malware removal, data recovery. Free diagnostics.',
  },
  {
    slug: 'tysons-corner',
    name: 'Tysons Corner',
    fullName: 'Tysons Corner, Virginia',
    city: 'Tysons',
    state: 'VA',
    region: 'Fairfax County',
    zipCodes: ['22102', '22182', '22180', '22043', '22027'],
    driveTime: '15-25',
    serviceAreas: ['Tysons', 'McLean', 'Vienna', 'Falls Church', 'Merrifield', 'Dunn Loring'],
    description:
      'Desk-side computer repair for the office towers of Tysons and the homes around them. Quick turnarounds for laptops, docking stations and conference-room PCs.',
    metaDescription:
      'Tysons Corner computer repair: same-day laptop, desktop and docking station repair, virus removal and data recovery for offices and homes. Free diagnostics.',
  },
  {
    slug: 'reston-herndon',
    name: 'Reston & Herndon',
    fullName: 'Reston and Herndon, Virginia',
    city: 'Reston',
    state: 'VA',
    region: 'Dulles Corridor',
    zipCodes: ['20190', '20191', '20194', '20170', '20171'],
    driveTime: '20-30',
    serviceAreas: ['Reston Town Center', 'Herndon', 'Dulles', 'Oak Hill', 'Sterling', 'Chantilly'],
    description:
      'Computer repair along the Dulles corridor for tech companies, contractors and families in Reston and Herndon, with same-day service for most repairs.',
    metaDescription:
      'Reston and Herndon computer repair: same-day laptop and desktop repair, virus removal, data recovery and network fixes along the Dulles corridor. Free diagnostics.',
  },
];

export function findLandingLocation(slug: string): LandingLocation | undefined {
  return LANDING_LOCATIONS.find((location) => location.slug === slug);
}

export function landingPageTitle(location: LandingLocation): string {
  return `Computer Repair in ${location.fullName}`;
}

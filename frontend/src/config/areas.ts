/** The 21 regional service pages, /{area}/services. */
export interface ServiceArea {
  readonly id: string;
  /** Short place name used in headings: "IT Support Services in {name}". */
  readonly name: string;
  readonly fullName: string;
  readonly description: string;
  readonly metaDescription: string;
  /** Silver Spring and Rockville are computer-repair pages with six fixed repair cards. */
  readonly variant: 'it-support' | 'computer-repair';
}

export const SERVICE_AREAS: readonly ServiceArea[] = [
  {
    id: 'northernvirginia',
    name: 'Northern Virginia',
    fullName: 'Northern Virginia',
    description:
      'From the Dulles corridor to Old Town, Northern Virginia businesses call us for Windows, network and security work. Our engineers are based in Arlington and reach most NoVA offices the same day.',
    metaDescription:
      'IT support and computer repair for Northern Virginia businesses: Windows, Active Directory, networks and DISA STIG hardening, remote or onsite the same day.',
    variant: 'it-support',
  },
  {
    id: 'washingtondc',
    name: 'Washington, DC',
    fullName: 'Washington, District of Columbia',
    description:
      'Law firms, associations and federal contractors across the District rely on us for secure, well-documented IT. Security-cleared staff are available for work in sensitive offices.',
    metaDescription:
      'IT support in Washington, DC for law firms, associations and contractors: Microsoft 365, networks, security hardening and same-day onsite repair.',
    variant: 'it-support',
  },
  {
    id: 'fairfax',
    name: 'Fairfax',
    fullName: 'Fairfax County, Virginia',
    description:
      'Fairfax County is home to many of our government-contractor clients. We help them keep workstations patched, domains healthy and CMMC evidence ready for the next audit.',
    metaDescription:
      'Fairfax IT support for contractors and small businesses: CMMC readiness, Windows and server repair, backups and networks, from certified engineers.',
    variant: 'it-support',
  },
  {
    id: 'alexandria',
    name: 'Alexandria',
    fullName: 'Alexandria, Virginia',
    description:
      'Old Town storefronts, Carlyle offices and West End practices: we set up and look after the PCs, Wi-Fi and email that Alexandria businesses run on.',
    metaDescription:
      'IT support in Alexandria, VA: computer repair, Wi-Fi and network setup, email and Microsoft 365 help for offices from Old Town to the West End.',
    variant: 'it-support',
  },
  {
    id: 'maryland',
    name: 'Maryland',
    fullName: 'Maryland',
    description:
      "We support offices across Montgomery, Prince George's and Howard counties with remote help first and onsite visits when hands are needed.",
    metaDescription:
      'Maryland IT support for small and medium businesses: remote help desk, onsite computer repair, networks, backups and security across the state.',
    variant: 'it-support',
  },
  {
    id: 'loudoun',
    name: 'Loudoun County',
    fullName: 'Loudoun County, Virginia',
    description:
      'Ashburn, Leesburg and Sterling companies use us for server rooms, firewalls and the day-to-day desktop support that keeps a growing team productive.',
    metaDescription:
      'Loudoun County IT support in Ashburn, Leesburg and Sterling: server and firewall setup, desktop support, backups and cybersecurity.',
    variant: 'it-support',
  },
  {
    id: 'arlington',
    name: 'Arlington',
    fullName: 'Arlington, Virginia',
    description:
      'Our office is on Wilson Boulevard, so Rosslyn, Clarendon, Ballston and Crystal City clients usually see an engineer within the hour when a visit is needed.',
    metaDescription:
      'Arlington, VA IT support from a local team on Wilson Blvd: fast onsite computer repair, networks, Microsoft 365 and security for nearby businesses.',
    variant: 'it-support',
  },
  {
    id: 'princewilliam',
    name: 'Prince William County',
    fullName: 'Prince William County, Virginia',
    description:
      'Woodbridge, Manassas and Gainesville businesses get the same certified engineers as our downtown clients, with remote support that starts within the hour.',
    metaDescription:
      'Prince William County IT support in Woodbridge, Manassas and Gainesville: remote help desk, onsite repair, networks and data backup.',
    variant: 'it-support',
  },
  {
    id: 'restonherndon',
    name: 'Reston & Herndon',
    fullName: 'Reston and Herndon, Virginia',
    description:
      'Along the Toll Road and the Silver Line, tech startups and contractors in Reston and Herndon lean on us for cloud, identity and network projects.',
    metaDescription:
      'Reston and Herndon IT support: Azure and Microsoft 365, Entra ID, networks and security for tech firms and contractors near the Dulles corridor.',
    variant: 'it-support',
  },
  {
    id: 'tysonscorner',
    name: 'Tysons Corner',
    fullName: 'Tysons Corner, Virginia',
    description:
      'Tysons professional offices count on us for quick desk-side fixes, conference-room tech and secure remote access for staff who work between home and the office.',
    metaDescription:
      'Tysons Corner IT support for professional offices: desk-side computer repair, secure remote access, networks and Microsoft 365 administration.',
    variant: 'it-support',
  },
  {
    id: 'montgomery',
    name: 'Montgomery County',
    fullName: 'Montgomery County, Maryland',
    description:
      'Medical practices, nonprofits and biotech firms in Montgomery County get careful, documented IT support that respects patient and donor data.',
    metaDescription:
      'Montgomery County, MD IT support for medical offices, nonprofits and biotech: secure networks, backups, Windows repair and Microsoft 365.',
    variant: 'it-support',
  },
  {
    id: 'princegeorges',
    name: "Prince George's County",
    fullName: "Prince George's County, Maryland",
    description:
      "From College Park to Largo and Bowie, Prince George's County organizations use us for reliable networks, backups and on-call repair.",
    metaDescription:
      "Prince George's County IT support in College Park, Largo and Bowie: computer repair, networks, backups and help desk for local organizations.",
    variant: 'it-support',
  },
  {
    id: 'howard',
    name: 'Howard County',
    fullName: 'Howard County, Maryland',
    description:
      'Columbia and Ellicott City firms, many supporting Fort Meade, bring us in for hardened workstations, identity management and dependable help desk coverage.',
    metaDescription:
      'Howard County IT support in Columbia and Ellicott City: STIG-hardened workstations, Active Directory, help desk and onsite repair.',
    variant: 'it-support',
  },
  {
    id: 'bethesdachevychase',
    name: 'Bethesda & Chevy Chase',
    fullName: 'Bethesda and Chevy Chase, Maryland',
    description:
      'Financial advisers, medical offices and home offices in Bethesda and Chevy Chase trust us with quiet, careful work on their computers and networks.',
    metaDescription:
      'Bethesda and Chevy Chase IT support for advisers, medical offices and home offices: computer repair, secure Wi-Fi, backups and email.',
    variant: 'it-support',
  },
  {
    id: 'downtowndc',
    name: 'Downtown DC',
    fullName: 'Downtown Washington, DC',
    description:
      'K Street firms and associations near Metro Center get fast onsite help, secure conference-room setups and Microsoft 365 administration.',
    metaDescription:
      'Downtown DC IT support near K Street and Metro Center: onsite computer repair, Microsoft 365, networks and security for firms and associations.',
    variant: 'it-support',
  },
  {
    id: 'georgetown',
    name: 'Georgetown',
    fullName: 'Georgetown, Washington, DC',
    description:
      'Boutiques, galleries and professional offices in Georgetown call us for point-of-sale PCs, guest Wi-Fi and laptops that simply need to work.',
    metaDescription:
      'Georgetown IT support and computer repair for shops, galleries and offices: point-of-sale PCs, guest Wi-Fi, laptops and email.',
    variant: 'it-support',
  },
  {
    id: 'annandale',
    name: 'Annandale',
    fullName: 'Annandale, Virginia',
    description:
      'Restaurants, clinics and family businesses in Annandale use our remote help desk and same-day onsite visits for PCs, printers and networks.',
    metaDescription:
      'Annandale, VA IT support for restaurants, clinics and family businesses: computer and printer repair, Wi-Fi and same-day visits.',
    variant: 'it-support',
  },
  {
    id: 'springfield',
    name: 'Springfield',
    fullName: 'Springfield, Virginia',
    description:
      'Springfield contractors and retailers near the Mixing Bowl get secure, STIG-aware workstation builds and a help desk that answers within the hour.',
    metaDescription:
      'Springfield, VA IT support for contractors and retailers: secure workstation builds, network repair, backups and a responsive help desk.',
    variant: 'it-support',
  },
  {
    id: 'mclean',
    name: 'McLean',
    fullName: 'McLean, Virginia',
    description:
      'Executives and small firms in McLean rely on discreet, security-minded support for home offices, family networks and business systems.',
    metaDescription:
      'McLean, VA IT support for executives and small firms: discreet home-office support, secure networks, computer repair and Microsoft 365.',
    variant: 'it-support',
  },
  {
    id: 'silverspring',
    name: 'Silver Spring',
    fullName: 'Silver Spring, Maryland',
    description:
      "Laptop won't boot, desktop crawling, or a virus warning that won't go away? Silver Spring residents and businesses bring us their computer problems, from downtown Silver Spring to Wheaton and Takoma Park.",
    metaDescription:
      'Computer repair in Silver Spring, MD: laptop and desktop repair, virus removal, data recovery and upgrades, with same-day onsite and remote service.',
    variant: 'computer-repair',
  },
  {
    id: 'rockville',
    name: 'Rockville',
    fullName: 'Rockville, Maryland',
    description:
      'From Rockville Town Square to the Pike corridor, we repair laptops and desktops, remove malware and recover lost files for homes and offices across Rockville.',
    metaDescription:
      'Computer repair in Rockville, MD: laptop screen and battery replacement, desktop repair, malware removal and data recovery, onsite or remote.',
    variant: 'computer-repair',
  },
];

export function findServiceArea(id: string): ServiceArea | undefined {
  return SERVICE_AREAS.find((area) => area.id === id);
}

export function regionalPageTitle(area: ServiceArea): string {
  return area.variant === 'computer-repair' ? `Computer Repair Services in ${area.name}` : `IT Support Services in ${area.name}`;
}

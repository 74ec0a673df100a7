/** Copy shared by the nine computer-repair landing pages; {city}-specific parts are filled in by the page. */
export interface LandingServiceCard {
  readonly title: string;
  readonly description: string;
  readonly features: readonly string[];
}

export interface WhyChooseItem {
  readonly title: string;
  readonly description: string;
}

export function landingServiceCards(place: string): LandingServiceCard[] {
  return [
    {
      title: 'Laptop & Desktop Repair',
      description: `Hardware faults fixed at your ${place} home or office, or on our bench in Arlington.`,
      features: [
        'Screen, keyboard and battery replacement',
        'Power, charging port and motherboard repair',
        'Overheating and noisy fan fixes',
        'Liquid damage assessment',
      ],
    },
    {
      title: 'Virus & Malware Removal',
      description: 'Infections removed completely, then the door they came through is closed.',
      features: [
        'Ransomware and spyware cleanup',
        'Browser hijacker and pop-up removal',
        'Endpoint protection setup',
        'Email account security check',
      ],
    },
    {
      title: 'Data Recovery & Backup',
      description: 'Lost files recovered and a backup plan set up so it does not happen twice.',
      features: ['Failing hard drive and SSD recovery', 'Deleted file and photo recovery', 'Automatic cloud backups', 'Tested restores'],
    },
    {
      title: 'Network & Wi-Fi Setup',
      description: `Fast, secure Wi-Fi and wired networks for ${place} offices and homes.`,
      features: ['Dead zone elimination', 'Router and firewall configuration', 'Secure guest networks', 'VPN for remote staff'],
    },
    {
      title: 'Business IT Support',
      description: 'A help desk and engineers on call for your whole team.',
      features: [
        'Microsoft 365 and email administration',
        'User accounts and Active Directory',
        'New employee setup',
        'Government contractor compliance (DISA STIG, CMMC)',
      ],
    },
    {
      title: 'Upgrades & New PC Setup',
      description: 'Extend the life of what you own or move to new hardware without losing a file.',
      features: ['SSD and memory upgrades', 'Windows 11 upgrades', 'Data and settings migration', 'Printer and peripheral setup'],
    },
  ];
}

export function whyChooseItems(place: string): WhyChooseItem[] {
  return [
    { title: 'Same-Day Service', description: `Most ${place} repairs start the day you call; remote sessions begin within the hour.` },
    {
      title: 'Free Diagnostics',
      description: 'We find the fault before you commit to a repair, and the diagnostic is credited toward the work.',
    },
    { title: 'All Brands Serviced', description: 'Dell, HP, Lenovo, Microsoft Surface, ASUS, Acer, custom builds and business servers.' },
    {
      title: 'Certified Technicians',
      description: 'Microsoft-certified Systems Engineers, with security-cleared staff for DC government work.',
    },
    {
      title: 'Warranty on Repairs',
      description: 'Repair work is under warranty, and if the same problem returns within 30 days we fix it again free.',
    },
    {
      title: 'Clear, Upfront Pricing',
      description: 'You approve the price after diagnosis; hourly work is billed in 15-minute increments.',
    },
  ];
}

export const BUSINESS_TYPES: readonly string[] = [
  'Law firms',
  'Medical and dental offices',
  'Accounting and CPA firms',
  'Government contractors',
  'Nonprofits and associations',
  'Real estate offices',
  'Architecture and engineering firms',
  'Restaurants and retail shops',
  'Schools and tutoring centers',
  'Home offices and remote workers',
  'Property management companies',
  'Startups and tech companies',
];

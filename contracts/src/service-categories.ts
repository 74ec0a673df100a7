export interface ServiceCategory {
  readonly id: ServiceCategoryId;
  readonly name: string;
  /** Name of the icon the site draws for this category. */
  readonly icon: string;
  readonly description: string;
  readonly subtopics: readonly string[];
}

export const SERVICE_CATEGORY_IDS = [
  'windows',
  'active-directory',
  'exchange',
  'virtualization',
  'cybersecurity',
  'networking',
  'system-management',
  'storage',
  'troubleshooting',
] as const;
export type ServiceCategoryId = (typeof SERVICE_CATEGORY_IDS)[number];

export const SERVICE_CATEGORIES: readonly ServiceCategory[] = [
  {
    id: 'windows',
    name: 'Microsoft Windows & Client OS',
    icon: 'monitor',
    description:
      'Installation, repair and tuning of Windows 10 and 11 workstations and laptops, from a single home office PC to a whole floor of desks.',
    subtopics: [
      'Windows 10 and 11 installation and upgrades',
      'Blue screen and boot failure repair',
      'Slow computer tune-ups',
      'Driver and Windows Update problems',
      'User profile corruption and data recovery',
      'Microsoft 365 and Office activation',
      'Printer and peripheral setup',
      'BitLocker recovery and device encryption',
      'New PC setup and data migration',
      'Group Policy settings on workstations',
    ],
  },
  {
    id: 'active-directory',
    name: 'Active Directory (AD) & Identity Management',
    icon: 'users',
    description:
      'Healthy domains and sign-ins: Active Directory, Entra ID and the accounts, groups and policies your staff depend on every morning.',
    subtopics: [
      'Domain controller health checks and repair',
      'User, group and OU administration',
      'Group Policy design and troubleshooting',
      'Entra ID (Azure AD) Connect and hybrid identity',
      'Multi-factor authentication rollout',
      'Account lockout investigations',
      'DNS and DHCP for the domain',
      'FSMO role transfers and domain upgrades',
      'Single sign-on for cloud applications',
      'Privileged access reviews',
    ],
  },
  {
    id: 'exchange',
    name: 'Microsoft Exchange Server',
    icon: 'mail',
    description:
      'On-premises Exchange and Exchange Online kept delivering: mail flow, mailboxes, certificates and migrations without lost messages.',
    subtopics: [
      'Mail flow and delivery problems',
      'Exchange Online and hybrid migrations',
      'Mailbox permissions and shared mailboxes',
      'SSL certificate renewals',
      'Spam filtering, SPF, DKIM and DMARC',
      'Outlook profile and connectivity issues',
      'Database and log maintenance',
      'Cumulative updates and security patches',
      'Public folder migrations',
      'Mailbox recovery and litigation hold',
    ],
  },
  {
    id: 'virtualization',
    name: 'Virtualization & Cloud Technologies',
    icon: 'cloud',
    description: 'Hyper-V, VMware and Azure workloads planned, migrated and looked after so servers stay up and costs stay predictable.',
    subtopics: [
      'Hyper-V and VMware vSphere administration',
      'Physical-to-virtual migrations',
      'Azure and Microsoft 365 tenant setup',
      'Cloud cost reviews',
      'Virtual desktop (AVD and RDS) deployments',
      'Host patching and firmware updates',
      'Snapshot and replica management',
      'Capacity planning',
      'Disaster recovery to the cloud',
      'Container hosts for line-of-business apps',
    ],
  },
  {
    id: 'cybersecurity',
    name: 'Cybersecurity & Compliance (DISA STIG, Hardening)',
    icon: 'shield',
    description:
      'Hardening to DISA STIG and CIS benchmarks, malware cleanup and the evidence contractors need for CMMC and NIST 800-171 audits.',
    subtopics: [
      'DISA STIG and CIS benchmark hardening',
      'CMMC and NIST 800-171 readiness',
      'Virus, ransomware and malware removal',
      'Endpoint protection deployment',
      'Vulnerability scanning and patch reports',
      'Firewall rule reviews',
      'Phishing incident response',
      'Security awareness training for staff',
      'Audit logging and SIEM onboarding',
      'Secure remote access policies',
    ],
  },
  {
    id: 'networking',
    name: 'Networking & Infrastructure',
    icon: 'network',
    description: 'Wired and wireless networks that simply work: switches, firewalls, Wi-Fi coverage, VPNs and the cabling behind them.',
    subtopics: [
      'Wi-Fi dead zones and slow connections',
      'Firewall and router configuration',
      'Site-to-site and client VPNs',
      'Switch and VLAN setup',
      'Structured cabling and network closets',
      'Internet provider failover',
      'Network monitoring and alerting',
      'Office moves and new site build-outs',
      'VoIP phone network readiness',
      'Guest network isolation',
    ],
  },
  {
    id: 'system-management',
    name: 'System Management & Automation',
    icon: 'settings',
    description:
      'Patching, inventory and routine work handled by Intune, SCCM and PowerShell instead of by hand, with reports you can read.',
    subtopics: [
      'Microsoft Intune device management',
      'Configuration Manager (SCCM) deployments',
      'PowerShell automation scripts',
      'Patch management schedules',
      'Hardware and software inventory',
      'Automated user onboarding and offboarding',
      'Remote monitoring and management agents',
      'Software packaging and deployment',
      'Scheduled maintenance windows',
      'Compliance and health reporting',
    ],
  },
  {
    id: 'storage',
    name: 'Storage & Backup Solutions',
    icon: 'hard-drive',
    description:
      'Backups that are tested, file servers that stay fast and recovery plans for the day a drive, a laptop or a whole office fails.',
    subtopics: [
      'Backup design and restore testing',
      'Failed hard drive and SSD data recovery',
      'NAS and file server setup',
      'Microsoft 365 backup',
      'RAID rebuilds and storage health checks',
      'OneDrive and SharePoint migrations',
      'Offsite and immutable backups',
      'Ransomware recovery planning',
      'File permission cleanups',
      'Storage capacity upgrades',
    ],
  },
  {
    id: 'troubleshooting',
    name: 'Troubleshooting & Support',
    icon: 'wrench',
    description:
      'When something is broken and you are not sure why: remote or onsite diagnosis by a certified Systems Engineer, usually the same day.',
    subtopics: [
      'Same-day remote support sessions',
      'Onsite visits across MD, VA and DC',
      'Laptop screen, keyboard and battery repair',
      'Desktop hardware diagnosis and replacement',
      'Application crashes and error messages',
      'Email and calendar sync problems',
      'Slow network or internet diagnosis',
      'Recurring problem root-cause analysis',
      'After-hours emergency help',
      'Second opinions on IT quotes',
    ],
  },
];

export function isServiceCategoryId(value: string): value is ServiceCategoryId {
  return (SERVICE_CATEGORY_IDS as readonly string[]).includes(value);
}

export function findServiceCategory(id: string): ServiceCategory | undefined {
  return SERVICE_CATEGORIES.find((category) => category.id === id);
}

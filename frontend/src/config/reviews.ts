/** Figures of SPEC section 9 and the sample reviews shown on /google-reviews. */
export const REVIEW_STATS = {
  totalReviews: 127,
  averageRating: 5,
  yearsInBusiness: 12,
  /** The public maps listing where customers read and leave reviews. */
  mapsListingUrl: 'https://www.google.com/maps/search/?api=1&query=Potomac+PC+Repair+2200+Wilson+Blvd+Arlington+VA',
} as const;

export interface Review {
  readonly name: string;
  readonly rating: number;
  readonly timeAgo: string;
  readonly content: string;
  readonly isVerified: boolean;
}

export const REVIEWS: readonly Review[] = [
  {
    name: 'Jennifer W.',
    rating: 5,
    timeAgo: '1 week ago',
    isVerified: true,
    content:
      'My laptop would not get past the Windows logo the night before a board presentation. They had it booting again remotely in under an hour and recovered every file.',
  },
  {
    name: 'Marcus T.',
    rating: 5,
    timeAgo: '2 weeks ago',
    isVerified: true,
    content:
      'We moved our Arlington office over a weekend. They re-cabled the network closet, set up the new firewall and everything worked Monday at 8 AM.',
  },
  {
    name: 'Linda K.',
    rating: 5,
    timeAgo: '2 weeks ago',
    isVerified: true,
    content: 'Honest and fast. They told me my six-year-old desktop was worth fixing, swapped in an SSD and it now starts in seconds.',
  },
  {
    name: 'Robert A.',
    rating: 5,
    timeAgo: '3 weeks ago',
    isVerified: true,
    content:
      'A phishing email got one of our staff. They locked the account, checked every mailbox rule and walked us through turning on MFA for everyone.',
  },
  {
    name: 'Sofia R.',
    rating: 5,
    timeAgo: '1 month ago',
    isVerified: true,
    content: 'The technician arrived in Old Town within the window they promised and fixed our point-of-sale PC before the lunch rush.',
  },
  {
    name: 'James P.',
    rating: 5,
    timeAgo: '1 month ago',
    isVerified: true,
    content:
      'They migrated our firm from an old Exchange server to Microsoft 365 without losing a single message. Clear plan, clear communication.',
  },
  {
    name: 'Angela M.',
    rating: 5,
    timeAgo: '1 month ago',
    isVerified: true,
    content:
      "Removed a nasty browser hijacker from my mother's computer and set it up so she can get help remotely next time. Very patient with her questions.",
  },
  {
    name: 'Kevin L.',
    rating: 5,
    timeAgo: '2 months ago',
    isVerified: true,
    content: 'Our Hyper-V host crashed on a Friday evening. They restored the VMs from backup overnight and we opened on time Saturday.',
  },
  {
    name: 'Patricia G.',
    rating: 5,
    timeAgo: '2 months ago',
    isVerified: true,
    content:
      'Replaced the cracked screen on my ThinkPad the same day. Fair price and the diagnostic fee was credited toward the repair as promised.',
  },
  {
    name: 'Daniel S.',
    rating: 5,
    timeAgo: '2 months ago',
    isVerified: true,
    content:
      'They took over a messy Active Directory from our previous provider, cleaned up years of old accounts and documented everything.',
  },
  {
    name: 'Michelle B.',
    rating: 5,
    timeAgo: '3 months ago',
    isVerified: true,
    content:
      'Our Reston startup needed laptops ready for ten new hires in three days. Intune enrollment, software, accounts: all done on time.',
  },
  {
    name: 'Thomas H.',
    rating: 5,
    timeAgo: '3 months ago',
    isVerified: true,
    content:
      'Failed hard drive with our only copy of client files. They recovered almost all of it and then set up proper backups so it never happens again.',
  },
  {
    name: 'Nicole F.',
    rating: 5,
    timeAgo: '3 months ago',
    isVerified: true,
    content: 'Wi-Fi dead zones in our Bethesda house are gone. They mapped the signal room by room and installed two access points neatly.',
  },
  {
    name: 'Brian C.',
    rating: 5,
    timeAgo: '4 months ago',
    isVerified: true,
    content:
      'As a government contractor we needed STIG-compliant builds. They knew exactly what the checklist required and provided the scan reports.',
  },
  {
    name: 'Rachel E.',
    rating: 5,
    timeAgo: '4 months ago',
    isVerified: true,
    content: 'Called at 7 PM with an email outage. An engineer called back within the hour and had our mail flowing again that evening.',
  },
  {
    name: 'Steven J.',
    rating: 5,
    timeAgo: '5 months ago',
    isVerified: true,
    content: 'They fixed recurring printer problems that two other companies could not. Turned out to be a driver pushed by group policy.',
  },
  {
    name: 'Karen D.',
    rating: 5,
    timeAgo: '5 months ago',
    isVerified: true,
    content:
      'Professional from start to finish. The online request took two minutes and I had a call from a Systems Engineer almost immediately.',
  },
  {
    name: 'Anthony V.',
    rating: 5,
    timeAgo: '6 months ago',
    isVerified: true,
    content:
      "Our nonprofit in Silver Spring gets priority-level care on a small budget. They even helped us apply for Microsoft's nonprofit licensing.",
  },
  {
    name: 'Laura N.',
    rating: 5,
    timeAgo: '7 months ago',
    isVerified: true,
    content: 'Upgraded the RAM and storage in two of our design workstations instead of replacing them. Saved us thousands.',
  },
  {
    name: 'Christopher Y.',
    rating: 5,
    timeAgo: '8 months ago',
    isVerified: true,
    content:
      'Great experience in Tysons. They set up secure VPN access for our team in a single afternoon and explained it in plain English.',
  },
];

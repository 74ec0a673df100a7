export interface Testimonial {
  readonly id: string;
  /** 0 to 5 in half steps. */
  readonly rating: number;
  readonly text: string;
  readonly author: { readonly initials: string; readonly name: string; readonly title: string };
}

export const TESTIMONIALS: readonly Testimonial[] = [
  {
    id: 'hartley-law',
    rating: 5,
    text: 'Our domain controller failed on a Monday morning with a filing deadline that afternoon. Their engineer was on a remote session within twenty minutes and had everyone signed back in before lunch.',
    author: { initials: 'MH', name: 'Margaret Hartley', title: 'Office Manager, Hartley & Soto LLP, Washington DC' },
  },
  {
    id: 'fairfax-contractor',
    rating: 5,
    text: 'They hardened our workstations to the DISA STIG baseline and handed us the documentation our CMMC assessor asked for. Clear pricing, no surprises.',
    author: { initials: 'DO', name: 'David Okafor', title: 'Director of Operations, Fairfax government contractor' },
  },
  {
    id: 'bethesda-dental',
    rating: 4.5,
    text: 'The Wi-Fi in our dental office dropped every afternoon. They found a failing access point and a misconfigured switch, replaced both, and it has been solid since.',
    author: { initials: 'PN', name: 'Dr. Priya Nair', title: 'Practice Owner, Bethesda dental office' },
  },
];

import { BUSINESS_PROFILE, DIAGNOSTIC_FEE_CENTS, formatUsd } from '@ppr/contracts';

export interface FaqItem {
  readonly question: string;
  readonly answer: string;
}

export interface FaqSection {
  readonly id: string;
  readonly title: string;
  readonly items: readonly FaqItem[];
}

const fee = formatUsd(DIAGNOSTIC_FEE_CENTS);

export const FAQ_SECTIONS: readonly FaqSection[] = [
  {
    id: 'general',
    title: 'General Questions',
    items: [
      {
        question: 'Which areas do you serve?',
        answer: `We support businesses and residents across Maryland, Virginia and Washington, DC. Remote support is available everywhere; onsite visits cover the DC metro area from our office in ${BUSINESS_PROFILE.address.city}, ${BUSINESS_PROFILE.address.region}.`,
      },
      {
        question: 'What are your business hours?',
        answer: `${BUSINESS_PROFILE.hours.map((h) => `${h.days} ${h.opens}-${h.closes}`).join(', ')}. Requests submitted outside these hours are picked up first thing the next morning.`,
      },
      {
        question: 'Do you work with home users or only businesses?',
        answer:
          'Both. Most of our clients are small and medium businesses, but we also repair personal laptops and desktops and set up home offices and home networks.',
      },
      {
        question: 'Who will work on my computer?',
        answer:
          'A certified Systems Engineer on our own staff, never an anonymous call center. Security-cleared engineers are available for work in government and contractor offices in DC.',
      },
    ],
  },
  {
    id: 'technical',
    title: 'Technical Support',
    items: [
      {
        question: 'How quickly will someone contact me?',
        answer: `${BUSINESS_PROFILE.responsePromise} Onsite visits are usually scheduled within 24-48 hours, and often the same day.`,
      },
      {
        question: 'Can you fix my problem remotely?',
        answer:
          'Most software, email, account and configuration problems are solved in a secure remote session. If the problem is hardware or the computer will not start, we schedule an onsite visit.',
      },
      {
        question: 'Which brands and systems do you support?',
        answer:
          'All major brands of laptops and desktops, including Dell, HP, Lenovo, Microsoft Surface, ASUS and Acer, along with Windows, Windows Server, Microsoft 365, Exchange, Hyper-V, VMware and Azure.',
      },
      {
        question: 'What if the same problem comes back?',
        answer: 'If the issue we fixed returns within 30 days, we fix it again at no additional charge.',
      },
    ],
  },
  {
    id: 'payment',
    title: 'Payment & Policies',
    items: [
      {
        question: 'How much does a diagnosis cost?',
        answer: `A diagnostic fee of ${fee} is collected upfront when you submit a support request. It is credited toward your final bill once the issue is resolved.`,
      },
      {
        question: 'How is the rest of the work billed?',
        answer: 'After diagnosis we tell you the price before any further work begins. Hourly work is billed in 15-minute increments.',
      },
      {
        question: 'Can I get a refund?',
        answer:
          'The diagnostic fee is non-refundable unless we do not respond within 24 hours of payment or the issue turns out to be outside our scope. Other refund requests are accepted within 7 days of service completion; see our refund policy for details.',
      },
      {
        question: 'Which payment methods do you accept?',
        answer: 'All major credit and debit cards, processed securely online. Businesses on a support plan can also pay by invoice.',
      },
    ],
  },
];

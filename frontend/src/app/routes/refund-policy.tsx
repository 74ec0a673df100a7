import { BUSINESS_PROFILE, DIAGNOSTIC_FEE_CENTS, formatUsd } from '@ppr/contracts';
import { Link } from 'react-router-dom';
import { ProsePage } from '../../components/prose-page';
import { paths } from '../../config/paths';

const fee = formatUsd(DIAGNOSTIC_FEE_CENTS);

export default function RefundPolicyRoute() {
  return (
    <ProsePage
      title="Refund Policy"
      lead="What you pay upfront, when it is refunded and how to ask for a refund."
      sections={[
        {
          heading: 'Diagnostic fee',
          body: (
            <>
              <p>
                Every support request starts with a diagnostic fee of {fee}, collected upfront. The fee is credited toward your final bill
                once the issue is resolved.
              </p>
              <p>The diagnostic fee is non-refundable, except in these two cases:</p>
              <ul>
                <li>No one from our team responds within 24 hours of your payment.</li>
                <li>The issue turns out to be outside the scope of the services we offer.</li>
              </ul>
            </>
          ),
        },
        {
          heading: 'Billing for work',
          body: <p>After diagnosis we agree the work with you before it starts. Hourly work is billed in 15-minute increments.</p>,
        },
        {
          heading: 'Requesting a refund',
          body: (
            <>
              <p>
                Refund requests must be made within 7 days of service completion. We review every request within 3 business days and tell
                you the outcome by email.
              </p>
              <p>Approved refunds are paid to the original payment method within 5-10 business days.</p>
            </>
          ),
        },
        {
          heading: 'Cancellations and missed appointments',
          body: (
            <ul>
              <li>Cancelling less than 24 hours before a scheduled appointment may incur a charge of 50% of the service fee.</li>
              <li>If no one is available at the agreed time and place (a no-show), the full service fee may be charged.</li>
            </ul>
          ),
        },
        {
          heading: 'Contact',
          body: (
            <p>
              To request a refund, call <a href={`tel:${BUSINESS_PROFILE.phoneE164}`}>{BUSINESS_PROFILE.phone}</a>, email{' '}
              <a href={`mailto:${BUSINESS_PROFILE.email}`}>{BUSINESS_PROFILE.email}</a> or use our{' '}
              <Link to={paths.contact.getHref()}>contact form</Link> with your ticket reference.
            </p>
          ),
        },
      ]}
    />
  );
}

import { BUSINESS_PROFILE, DIAGNOSTIC_FEE_CENTS, formatAddress, formatUsd } from '@ppr/contracts';
import { Link } from 'react-router-dom';
import { ProsePage } from '../../components/prose-page';
import { paths } from '../../config/paths';

export default function TermsRoute() {
  return (
    <ProsePage
      title="Terms of Service"
      lead={`These terms apply when you use this website or request services from ${BUSINESS_PROFILE.name}.`}
      sections={[
        {
          heading: 'Our services',
          body: (
            <p>
              We provide remote and onsite IT support and computer repair to businesses and individuals in{' '}
              {BUSINESS_PROFILE.serviceArea.join(', ')}. Each request is handled as a ticket; we describe the work and its price after
              diagnosis and do not start billable work without your agreement.
            </p>
          ),
        },
        {
          heading: 'Fees and payment',
          body: (
            <p>
              A diagnostic fee of {formatUsd(DIAGNOSTIC_FEE_CENTS)} is collected upfront and credited toward your final bill. Hourly work is
              billed in 15-minute increments. Refunds and cancellations follow our{' '}
              <Link to={paths.refundPolicy.getHref()}>refund policy</Link>.
            </p>
          ),
        },
        {
          heading: 'Your responsibilities',
          body: (
            <ul>
              <li>Give us accurate contact details and a truthful description of the problem.</li>
              <li>Make sure you are authorized to let us work on the devices and accounts involved.</li>
              <li>
                Keep your own backups of important data before any repair; we take care, but data loss can occur with failing hardware.
              </li>
            </ul>
          ),
        },
        {
          heading: 'Warranty and liability',
          body: (
            <p>
              Repair work is warranted against the same fault for 30 days. Except where the law does not allow it, our liability for any
              claim is limited to the amount you paid for the service concerned. We are not responsible for pre-existing defects,
              third-party software or data that was already lost before our work began.
            </p>
          ),
        },
        {
          heading: 'Website use',
          body: (
            <p>
              Content on this website is provided for information. You may not misuse the site, attempt to access other customers' data or
              interfere with its operation.
            </p>
          ),
        },
        {
          heading: 'Contact',
          body: (
            <p>
              {BUSINESS_PROFILE.name}, {formatAddress()}. Phone <a href={`tel:${BUSINESS_PROFILE.phoneE164}`}>{BUSINESS_PROFILE.phone}</a>,
              email <a href={`mailto:${BUSINESS_PROFILE.email}`}>{BUSINESS_PROFILE.email}</a>.
            </p>
          ),
        },
      ]}
    />
  );
}

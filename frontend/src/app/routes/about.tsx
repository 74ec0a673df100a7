import { BUSINESS_PROFILE, formatAddress } from '@ppr/contracts';
import { Link } from 'react-router-dom';
import { EngineerDeskImage } from '../../components/engineer-desk-image';
import { ProsePage } from '../../components/prose-page';
import { paths } from '../../config/paths';

export default function AboutRoute() {
  return (
    <ProsePage
      title={`About ${BUSINESS_PROFILE.name}`}
      lead="A team of certified Systems Engineers who have kept DC-area businesses running for more than 12 years."
      sections={[
        {
          heading: 'Our team',
          body: (
            <>
              <p>
                {BUSINESS_PROFILE.name} started in a small Arlington office in 2013 with two engineers who had spent their careers
                supporting federal agencies and the contractors around them. Today our Systems Engineers hold Microsoft, CompTIA Security+
                and VMware certifications, and several hold security clearances for work in sensitive DC offices.
              </p>
              <p>
                Every engineer is on our own staff. When you call, you talk to the person who will fix the problem, not a dispatcher reading
                a script.
              </p>
              <EngineerDeskImage className="mx-auto h-auto w-full max-w-sm" />
            </>
          ),
        },
        {
          heading: 'Our mission',
          body: (
            <p>
              Small and medium organizations deserve the same careful IT work as large enterprises, without enterprise contracts. We want
              every law firm, practice, nonprofit and contractor in {BUSINESS_PROFILE.serviceArea.join(', ')} to have an engineer they can
              reach within the hour.
            </p>
          ),
        },
        {
          heading: 'How we work',
          body: (
            <>
              <ul>
                <li>Diagnosis first: a diagnostic fee, credited toward the repair, so you know the price before the work begins.</li>
                <li>Remote first: most problems are fixed in a secure remote session the same day.</li>
                <li>Onsite when it matters: hardware, networks and office moves, usually scheduled within 24-48 hours.</li>
                <li>Written notes: every ticket ends with a plain-English summary of what we found and what we changed.</li>
                <li>Security by default: we harden what we touch, to DISA STIG and CIS baselines where your contracts require it.</li>
              </ul>
            </>
          ),
        },
        {
          heading: 'Visit or call',
          body: (
            <p>
              Our office is at {formatAddress()}. Call <a href={`tel:${BUSINESS_PROFILE.phoneE164}`}>{BUSINESS_PROFILE.phone}</a>,{' '}
              <Link to={paths.contact.getHref()}>send us a message</Link> or{' '}
              <Link to={paths.supportRequest.getHref()}>submit a support request</Link>.
            </p>
          ),
        },
      ]}
    />
  );
}

import { BUSINESS_PROFILE, formatAddress } from '@ppr/contracts';
import { Link } from 'react-router-dom';
import { ProsePage } from '../../components/prose-page';
import { paths } from '../../config/paths';

export default function PrivacyRoute() {
  return (
    <ProsePage
      title="Privacy Policy"
      lead={`How ${BUSINESS_PROFILE.name} collects, uses and protects your information.`}
      sections={[
        {
          heading: 'What we collect',
          body: (
            <ul>
              <li>Contact details you give us: name, business name, email, phone and address.</li>
              <li>The description of your problem and the notes our engineers add while working on it.</li>
              <li>Payment confirmations from our card processor. We never see or store your full card number.</li>
              <li>Basic, anonymous page-view statistics that help us improve the website.</li>
            </ul>
          ),
        },
        {
          heading: 'How we use it',
          body: (
            <p>
              We use your information to answer your request, carry out and bill the work, send you updates about your tickets and, if you
              agree, occasional news about our services. We do not sell or rent your information to anyone.
            </p>
          ),
        },
        {
          heading: 'Access to your devices',
          body: (
            <p>
              During a repair our engineers may see files on your devices. We look only at what the work requires, never copy your data
              except to recover or migrate it at your request, and securely erase any temporary copies when the work is done.
            </p>
          ),
        },
        {
          heading: 'Email preferences',
          body: (
            <p>
              Every marketing email contains an unsubscribe link, and you can also{' '}
              <Link to={paths.unsubscribe.getHref()}>unsubscribe here</Link>. Service emails about your own tickets are sent regardless.
            </p>
          ),
        },
        {
          heading: 'Security and retention',
          body: (
            <p>
              Your data is stored on encrypted systems with access limited to our staff. We keep ticket records for as long as needed for
              support, billing and legal obligations, and then delete them.
            </p>
          ),
        },
        {
          heading: 'Contact',
          body: (
            <p>
              Questions about your data: {BUSINESS_PROFILE.name}, {formatAddress()},{' '}
              <a href={`mailto:${BUSINESS_PROFILE.email}`}>{BUSINESS_PROFILE.email}</a>.
            </p>
          ),
        },
      ]}
    />
  );
}

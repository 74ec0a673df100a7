import { NotFoundContent } from '../../components/not-found-content';
import { findLandingLocation } from '../../config/landing-locations';
import { LandingPage } from '../../features/landing/components/landing-page';

export default function ComputerRepairLandingRoute({ slug }: { slug: string }) {
  const location = findLandingLocation(slug);
  return location ? <LandingPage location={location} /> : <NotFoundContent />;
}

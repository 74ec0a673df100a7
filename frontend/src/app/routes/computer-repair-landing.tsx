import { NotFoundContent } from '../../components/not-found-content';
import type { RoutePageProps } from '../../config/paths';
import { LandingPage } from '../../features/landing/components/landing-page';

/** /computer-repair-{slug}: the route table generates one route per landing location and hands it the location. */
export default function ComputerRepairLandingRoute({ route }: RoutePageProps) {
  return route.kind === 'landing' ? <LandingPage location={route.location} /> : <NotFoundContent />;
}

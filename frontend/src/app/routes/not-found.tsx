import { NotFoundContent } from '../../components/not-found-content';

export default function NotFoundRoute() {
  return <NotFoundContent />;
}

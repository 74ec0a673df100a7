import { useParams } from 'react-router-dom';
import { ProtectedRoute } from '../../features/customer-auth/components/protected-route';
import { CustomerTicket } from '../../features/customer-ticket/components/ticket-detail';

export default function TicketDetailRoute() {
  const { id = '' } = useParams();
  return <ProtectedRoute>{() => <CustomerTicket key={id} id={id} />}</ProtectedRoute>;
}

import { useParams } from 'react-router-dom';
import { ConfirmationScreen } from '../../features/confirmation/components/confirmation-screen';

export default function ConfirmationRoute() {
  const { ticketId } = useParams();
  const id = ticketId !== undefined && /^[1-9][0-9]{0,9}$/.test(ticketId) ? Number(ticketId) : null;
  return (
    <div className="px-4 py-12 sm:px-6">
      <ConfirmationScreen ticketId={id} />
    </div>
  );
}

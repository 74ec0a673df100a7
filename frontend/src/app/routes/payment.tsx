import { useParams } from 'react-router-dom';
import { PaymentScreen } from '../../features/payment/components/payment-screen';
import { StepIndicator } from '../../features/support-request/components/step-indicator';

/** /payment (the pending request of this browser session) and /payment/:ticketId (an existing ticket). */
export default function PaymentRoute() {
  const { ticketId } = useParams();
  const id = ticketId !== undefined && /^[1-9][0-9]{0,9}$/.test(ticketId) ? Number(ticketId) : undefined;
  return (
    <div className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
      <StepIndicator steps={['Request', 'Payment', 'Confirmation']} current={1} />
      <h1 className="mb-6 text-3xl font-bold text-slate-900">Payment Information</h1>
      <PaymentScreen {...(id === undefined ? {} : { ticketId: id })} />
    </div>
  );
}

import { PaymentReturn } from '../../features/payment/components/payment-return';

/** The return target of hosted checkout and of card redirects (3-D Secure): the payment return processing screen. */
export default function PaymentSuccessRoute() {
  return (
    <div className="px-4 py-12 sm:px-6">
      <PaymentReturn />
    </div>
  );
}

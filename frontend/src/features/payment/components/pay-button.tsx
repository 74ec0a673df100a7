import { SubmitButton } from '../../../components/ui/form';

/** Pay Now: disabled until the payment form is ready and while a payment is processing (SPEC section 2). */
export function PayButton({ ready, processing, amount }: { ready: boolean; processing: boolean; amount: string }) {
  return (
    <SubmitButton pending={processing} pendingLabel="Processing..." disabled={!ready} className="w-full">
      {`Pay Now ${amount}`}
    </SubmitButton>
  );
}

export interface CardFormProps {
  readonly clientSecret: string;
  readonly ticketId: number;
  /** The receipt email the form starts with (the request's email). */
  readonly defaultReceiptEmail: string;
  readonly amount: string;
  /** The gateway says the payment succeeded; the page then has the server verify and record it. */
  readonly onSucceeded: (paymentIntentId: string) => void;
}

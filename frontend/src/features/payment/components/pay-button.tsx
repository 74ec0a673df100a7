/** Pay Now: disabled until the payment form is ready and while a payment is processing (SPEC section 2). */
export function PayButton({ ready, processing, amount }: { ready: boolean; processing: boolean; amount: string }) {
  return (
    <button
      type="submit"
      disabled={!ready || processing}
      className="w-full rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-70"
    >
      {processing ? 'Processing...' : `Pay Now ${amount}`}
    </button>
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

import { CircleCheck } from 'lucide-react';
import { useEffect, useState } from 'react';

/** SPEC section 9: the banner after email verification stays 5 seconds. */
export const VERIFIED_BANNER_MS = 5000;

export function VerifiedBanner({ show }: { show: boolean }) {
  const [expired, setExpired] = useState(false);
  useEffect(() => {
    if (!show) return undefined;
    const timer = setTimeout(() => setExpired(true), VERIFIED_BANNER_MS);
    return () => clearTimeout(timer);
  }, [show]);
  const visible = show && !expired;

  // The live region stays mounted so the message is announced when it appears.
  return (
    <div role="status" aria-live="polite">
      {visible ? (
        <p className="flex items-center gap-2 rounded-lg border border-green-700 bg-green-50 px-4 py-3 font-semibold text-green-800">
          <CircleCheck aria-hidden="true" className="h-5 w-5 shrink-0" />
          Email verified successfully!
        </p>
      ) : null}
    </div>
  );
}

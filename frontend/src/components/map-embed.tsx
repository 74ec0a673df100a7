import { BUSINESS_PROFILE, formatAddress } from '@ppr/contracts';
import { MapPin } from 'lucide-react';
import { useState } from 'react';

const query = encodeURIComponent(`${BUSINESS_PROFILE.name}, ${formatAddress()}`);

/**
 * The office map. The third-party map loads only when the visitor asks for it, which keeps pages fast
 * and sends nothing to the map provider on page load.
 */
export function MapEmbed() {
  const [shown, setShown] = useState(false);
  if (shown) {
    return (
      <iframe
        title={`Map of ${BUSINESS_PROFILE.name}, ${formatAddress()}`}
        src={`https://maps.google.com/maps?q=${query}&output=embed`}
        width={600}
        height={360}
        loading="lazy"
        referrerPolicy="no-referrer-when-downgrade"
        className="h-[360px] w-full rounded-xl border-0"
      />
    );
  }
  return (
    <div className="flex h-[360px] w-full flex-col items-center justify-center gap-4 rounded-xl border border-slate-200 bg-slate-100 p-6 text-center">
      <MapPin aria-hidden="true" className="h-10 w-10 text-brand-700" />
      <p className="font-semibold text-slate-900">{formatAddress()}</p>
      <p className="text-sm text-slate-700">Free parking in the building garage; Court House Metro is a 5-minute walk.</p>
      <div className="flex flex-wrap justify-center gap-3">
        <button
          type="button"
          onClick={() => setShown(true)}
          className="rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
        >
          Show map
        </button>
        <a
          href={`https://www.google.com/maps/search/?api=1&query=${query}`}
          className="rounded-lg border border-brand-700 px-4 py-2 text-sm font-semibold text-brand-700 hover:bg-brand-50"
          target="_blank"
          rel="noopener noreferrer"
        >
          Open in Google Maps<span className="sr-only"> (opens in a new tab)</span>
        </a>
      </div>
    </div>
  );
}

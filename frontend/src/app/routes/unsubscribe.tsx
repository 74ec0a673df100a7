import { BUSINESS_PROFILE } from '@ppr/contracts';
import { UnsubscribePanel } from '../../features/unsubscribe/components/unsubscribe-panel';

export default function UnsubscribeRoute() {
  return (
    <section className="mx-auto max-w-2xl px-4 py-16 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Unsubscribe</h1>
      <p className="mt-3 text-slate-700">Stop receiving marketing emails from {BUSINESS_PROFILE.name}.</p>
      <UnsubscribePanel />
    </section>
  );
}

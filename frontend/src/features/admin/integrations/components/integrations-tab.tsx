import type { ReactNode } from 'react';
import { IntegrationKeysPanel } from './integration-keys-panel';
import { WebhooksPanel } from './webhooks-panel';

function Section({ id, title, intro, children }: { id: string; title: string; intro: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-xl border border-slate-200 bg-white p-5">
      <h3 id={id} className="text-xl font-bold text-slate-900">
        {title}
      </h3>
      <p className="mt-1 text-sm text-slate-700">{intro}</p>
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** Integrations: the keys of the event feed and the webhook endpoints (README, "Integrations"). */
export function IntegrationsTab() {
  return (
    <div className="space-y-6">
      <h2 className="text-2xl font-bold text-slate-900">Integrations</h2>
      <Section
        id="integrations-keys"
        title="Integration Keys"
        intro="Keys for the event feed (GET /api/integrations/events). Without personal data a key sees no names, email addresses or phones."
      >
        <IntegrationKeysPanel />
      </Section>
      <Section
        id="integrations-webhooks"
        title="Webhooks"
        intro="Endpoints that receive ticket events as signed POSTs, retried for about three days until they answer 2xx."
      >
        <WebhooksPanel />
      </Section>
    </div>
  );
}

import { AdminSection } from '../../components/admin-section';
import { IntegrationKeysPanel } from './integration-keys-panel';
import { WebhooksPanel } from './webhooks-panel';

/** Integrations: the keys of the event feed and the webhook endpoints (README, "Integrations"). */
export function IntegrationsTab() {
  return (
    <div className="space-y-6">
      <h2 className="text-2xl font-bold text-slate-900">Integrations</h2>
      <AdminSection
        id="integrations-keys"
        title="Integration Keys"
        intro="Keys for the event feed (GET /api/integrations/events). Without personal data a key sees no names, email addresses or phones."
      >
        <IntegrationKeysPanel />
      </AdminSection>
      <AdminSection
        id="integrations-webhooks"
        title="Webhooks"
        intro="Endpoints that receive ticket events as signed POSTs, retried for about three days until they answer 2xx."
      >
        <WebhooksPanel />
      </AdminSection>
    </div>
  );
}

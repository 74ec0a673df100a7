import type { WebhookDelivery, WebhookEndpoint } from '@ppr/contracts';
import { Spinner } from '../../../../components/ui/spinner';
import { formatDateTime } from '../../../../lib/format-date';
import { toast } from '../../../../lib/toast';
import { AdminDialog } from '../../components/admin-dialog';
import { AdminTable } from '../../components/admin-table';
import { adminButton } from '../../components/styles';
import { serverMessageOr } from '../../lib/errors';
import { useWebhookDeliveries } from '../api/get-webhook-deliveries';
import { useRedeliverWebhook } from '../api/redeliver-webhook';
import { DELIVERY_STATUS_LABELS, EVENT_TYPE_LABELS } from '../lib/labels';

const STATUS_CLASS: Record<WebhookDelivery['status'], string> = {
  pending: 'bg-amber-100 text-amber-900',
  succeeded: 'bg-green-100 text-green-900',
  failed: 'bg-red-100 text-red-900',
};

/** One endpoint's delivery log (status, response code, attempts, next try) with manual redelivery. */
export function WebhookDeliveriesDialog({ webhook, onClose }: { webhook: WebhookEndpoint; onClose: () => void }) {
  const deliveries = useWebhookDeliveries(webhook.id);
  const redeliver = useRedeliverWebhook();
  const onRedeliver = (delivery: WebhookDelivery) =>
    redeliver.mutate(
      { webhookId: webhook.id, deliveryId: delivery.id },
      {
        onSuccess: () =>
          toast({
            title: 'Redelivery Queued',
            description: `${EVENT_TYPE_LABELS[delivery.eventType]} of ticket ${delivery.ticketId} is sent again`,
          }),
        onError: (failure) =>
          toast({
            title: 'Redelivery Failed',
            description: serverMessageOr(failure, 'Failed to queue the delivery'),
            variant: 'destructive',
          }),
      },
    );

  return (
    <AdminDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="Webhook Deliveries"
      description={webhook.url}
      size="lg"
    >
      {deliveries.isPending ? (
        <Spinner label="Loading deliveries..." showLabel />
      ) : deliveries.isError ? (
        <p role="alert" className="text-red-700">
          {serverMessageOr(deliveries.error, 'Failed to load deliveries. Please try again.')}
        </p>
      ) : deliveries.data.length === 0 ? (
        <p className="text-slate-700">No deliveries yet.</p>
      ) : (
        <AdminTable
          label="Delivery log"
          columns={['Event', 'Ticket', 'Status', 'Attempts', 'Response', 'Last attempt', 'Next try', 'Actions']}
          nowrapHeadings
        >
          {deliveries.data.map((delivery) => (
            <tr key={delivery.id} className="text-slate-800">
              <td className="whitespace-nowrap px-3 py-2">{EVENT_TYPE_LABELS[delivery.eventType]}</td>
              <td className="px-3 py-2">{delivery.ticketId}</td>
              <td className="px-3 py-2">
                <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_CLASS[delivery.status]}`}>
                  {DELIVERY_STATUS_LABELS[delivery.status]}
                </span>
              </td>
              <td className="px-3 py-2">{delivery.attempts}</td>
              <td className="px-3 py-2">
                {delivery.responseCode ?? '—'}
                {delivery.lastError ? <span className="block text-xs text-slate-700">{delivery.lastError}</span> : null}
              </td>
              <td className="whitespace-nowrap px-3 py-2">{delivery.lastAttemptAt ? formatDateTime(delivery.lastAttemptAt) : '—'}</td>
              <td className="whitespace-nowrap px-3 py-2">{delivery.nextAttemptAt ? formatDateTime(delivery.nextAttemptAt) : '—'}</td>
              <td className="px-3 py-2">
                <button
                  type="button"
                  className={adminButton.small}
                  disabled={redeliver.isPending}
                  aria-label={`Redeliver delivery ${delivery.id}`}
                  onClick={() => onRedeliver(delivery)}
                >
                  Redeliver
                </button>
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
    </AdminDialog>
  );
}

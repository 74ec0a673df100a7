import { integrationMessages, type UpdateWebhook, type WebhookEndpoint } from '@ppr/contracts';
import { useState } from 'react';
import { Spinner } from '../../../../components/ui/spinner';
import { ApiRequestError } from '../../../../lib/api-client';
import { formatDateTime } from '../../../../lib/format-date';
import { toast } from '../../../../lib/toast';
import { AdminDialog } from '../../components/admin-dialog';
import { adminButton } from '../../components/styles';
import { serverMessageOr } from '../../lib/errors';
import { useCreateWebhook } from '../api/create-webhook';
import { useDeleteWebhook } from '../api/delete-webhook';
import { useWebhooks } from '../api/get-webhooks';
import { useUpdateWebhook } from '../api/update-webhook';
import { EVENT_TYPE_LABELS } from '../lib/labels';
import { SecretReveal } from './secret-reveal';
import { WebhookDeliveriesDialog } from './webhook-deliveries-dialog';
import { EMPTY_WEBHOOK, WebhookForm, type WebhookFormValues } from './webhook-form';

const URL_MESSAGES: readonly string[] = [
  integrationMessages.webhookUrlInvalid,
  integrationMessages.webhookUrlPrivate,
  integrationMessages.webhookUrlUnresolvable,
];

/** The server's refusal of the URL, to show on the URL field; undefined for any other failure. */
export function urlErrorOf(error: unknown): string | undefined {
  return error instanceof ApiRequestError && error.serverMessage && URL_MESSAGES.includes(error.serverMessage)
    ? error.serverMessage
    : undefined;
}

type Dialog = { kind: 'secret'; url: string; secret: string } | { kind: 'edit' | 'delete' | 'deliveries'; webhook: WebhookEndpoint };

/** Webhook endpoints: register (the signing secret shown once), list, edit, delete, and each one's delivery log. */
export function WebhooksPanel() {
  const webhooks = useWebhooks();
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [formKey, setFormKey] = useState(0);
  const [urlError, setUrlError] = useState<string | undefined>();

  const onCreate = (values: WebhookFormValues) => {
    setUrlError(undefined);
    create.mutate(
      {
        url: values.url,
        eventTypes: values.eventTypes,
        includePersonalData: values.includePersonalData,
        ...(values.description ? { description: values.description } : {}),
      },
      {
        onSuccess: (answer) => {
          setDialog({ kind: 'secret', url: values.url, secret: answer.secret });
          setFormKey((key) => key + 1);
          toast({ title: 'Webhook Registered', description: `${values.url}: copy the signing secret now, it is shown only once` });
        },
        onError: (failure) => {
          setUrlError(urlErrorOf(failure));
          toast({
            title: 'Register Failed',
            description: serverMessageOr(failure, 'Failed to register the webhook'),
            variant: 'destructive',
          });
        },
      },
    );
  };

  const onEnable = (webhook: WebhookEndpoint) =>
    update.mutate(
      { id: webhook.id, body: { enabled: true } },
      {
        onSuccess: () => toast({ title: 'Webhook Enabled', description: `${webhook.url} receives deliveries again` }),
        onError: (failure) =>
          toast({ title: 'Update Failed', description: serverMessageOr(failure, 'Failed to update the webhook'), variant: 'destructive' }),
      },
    );

  return (
    <div className="space-y-6">
      <WebhookForm
        key={formKey}
        idPrefix="webhook-new"
        label="Register a webhook"
        initial={EMPTY_WEBHOOK}
        submitLabel="Register Webhook"
        pendingLabel="Registering..."
        pending={create.isPending}
        serverUrlError={urlError}
        onSubmit={onCreate}
      />

      {webhooks.isPending ? (
        <Spinner label="Loading webhooks..." showLabel />
      ) : webhooks.isError ? (
        <p role="alert" className="text-red-700">
          {serverMessageOr(webhooks.error, 'Failed to load webhooks. Please try again.')}
        </p>
      ) : webhooks.data.length === 0 ? (
        <p className="text-slate-700">No webhooks registered yet.</p>
      ) : (
        <ul aria-label="Webhooks" className="divide-y divide-slate-200 rounded-lg border border-slate-200">
          {webhooks.data.map((webhook) => (
            <li key={webhook.id} className="space-y-2 px-3 py-3">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div className="min-w-0">
                  <p className="break-all font-mono text-sm font-semibold text-slate-900">{webhook.url}</p>
                  {webhook.description ? <p className="text-sm text-slate-700">{webhook.description}</p> : null}
                  <p className="text-sm text-slate-700">
                    {webhook.enabled ? 'Enabled' : `Disabled${webhook.disabledReason ? `: ${webhook.disabledReason}` : ''}`}
                    {webhook.includePersonalData ? ' · with personal data' : ''} · registered {formatDateTime(webhook.createdAt)}
                  </p>
                  <p className="text-sm text-slate-700">{webhook.eventTypes.map((type) => EVENT_TYPE_LABELS[type]).join(', ')}</p>
                </div>
                <div className="flex flex-wrap gap-2">
                  <button
                    type="button"
                    className={adminButton.small}
                    aria-label={`Deliveries of ${webhook.url}`}
                    onClick={() => setDialog({ kind: 'deliveries', webhook })}
                  >
                    Deliveries
                  </button>
                  <button
                    type="button"
                    className={adminButton.small}
                    aria-label={`Edit ${webhook.url}`}
                    onClick={() => setDialog({ kind: 'edit', webhook })}
                  >
                    Edit
                  </button>
                  {webhook.enabled ? null : (
                    <button
                      type="button"
                      className={adminButton.small}
                      disabled={update.isPending}
                      aria-label={`Enable ${webhook.url}`}
                      onClick={() => onEnable(webhook)}
                    >
                      Enable
                    </button>
                  )}
                  <button
                    type="button"
                    className={adminButton.small}
                    aria-label={`Delete ${webhook.url}`}
                    onClick={() => setDialog({ kind: 'delete', webhook })}
                  >
                    Delete
                  </button>
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}

      {dialog?.kind === 'secret' ? (
        <AdminDialog
          open
          onOpenChange={(open) => (open ? undefined : setDialog(null))}
          title="Webhook Registered"
          description={`Deliveries to ${dialog.url} are signed with this secret (Standard Webhooks).`}
        >
          <SecretReveal label="Signing secret" value={dialog.secret} />
          <div className="mt-5 flex justify-end">
            <button type="button" className={adminButton.primary} onClick={() => setDialog(null)}>
              Done
            </button>
          </div>
        </AdminDialog>
      ) : null}
      {dialog?.kind === 'edit' ? <EditWebhookDialog webhook={dialog.webhook} onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'delete' ? <DeleteWebhookDialog webhook={dialog.webhook} onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'deliveries' ? <WebhookDeliveriesDialog webhook={dialog.webhook} onClose={() => setDialog(null)} /> : null}
    </div>
  );
}

function EditWebhookDialog({ webhook, onClose }: { webhook: WebhookEndpoint; onClose: () => void }) {
  const update = useUpdateWebhook();
  const [urlError, setUrlError] = useState<string | undefined>();
  const onSubmit = (values: WebhookFormValues) => {
    setUrlError(undefined);
    const body: UpdateWebhook = {
      url: values.url,
      eventTypes: values.eventTypes,
      includePersonalData: values.includePersonalData,
      description: values.description,
    };
    update.mutate(
      { id: webhook.id, body },
      {
        onSuccess: () => {
          toast({ title: 'Webhook Updated', description: `${values.url} was saved` });
          onClose();
        },
        onError: (failure) => {
          setUrlError(urlErrorOf(failure));
          toast({ title: 'Update Failed', description: serverMessageOr(failure, 'Failed to update the webhook'), variant: 'destructive' });
        },
      },
    );
  };
  return (
    <AdminDialog open onOpenChange={(open) => (open ? undefined : onClose())} title="Edit Webhook" size="lg">
      <WebhookForm
        idPrefix={`webhook-${webhook.id}`}
        label="Edit the webhook"
        initial={{
          url: webhook.url,
          description: webhook.description ?? '',
          eventTypes: [...webhook.eventTypes],
          includePersonalData: webhook.includePersonalData,
        }}
        submitLabel="Save Changes"
        pendingLabel="Saving..."
        pending={update.isPending}
        serverUrlError={urlError}
        onSubmit={onSubmit}
      />
    </AdminDialog>
  );
}

function DeleteWebhookDialog({ webhook, onClose }: { webhook: WebhookEndpoint; onClose: () => void }) {
  const remove = useDeleteWebhook();
  const onConfirm = () =>
    remove.mutate(webhook.id, {
      onSuccess: () => {
        toast({ title: 'Webhook Deleted', description: `${webhook.url} receives no more deliveries` });
        onClose();
      },
      onError: (failure) =>
        toast({ title: 'Delete Failed', description: serverMessageOr(failure, 'Failed to delete the webhook'), variant: 'destructive' }),
    });
  return (
    <AdminDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="Delete Webhook"
      description={`${webhook.url} and its delivery log are removed; pending deliveries are not sent. This cannot be undone.`}
    >
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" className={adminButton.secondary} onClick={onClose}>
          Cancel
        </button>
        <button type="button" className={adminButton.danger} disabled={remove.isPending} onClick={onConfirm}>
          {remove.isPending ? 'Deleting...' : 'Delete Webhook'}
        </button>
      </div>
    </AdminDialog>
  );
}

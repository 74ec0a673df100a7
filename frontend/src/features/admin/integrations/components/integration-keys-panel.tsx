import { createIntegrationKeySchema, type IntegrationKeySummary, type IntegrationScope } from '@ppr/contracts';
import { useState, type FormEvent } from 'react';
import { Field, Input } from '../../../../components/ui/form';
import { Spinner } from '../../../../components/ui/spinner';
import { formatDateTime } from '../../../../lib/format-date';
import { toast } from '../../../../lib/toast';
import { AdminDialog } from '../../components/admin-dialog';
import { AdminTable } from '../../components/admin-table';
import { adminButton } from '../../components/styles';
import { serverMessageOr } from '../../lib/errors';
import { useCreateIntegrationKey } from '../api/create-integration-key';
import { useIntegrationKeys } from '../api/get-integration-keys';
import { useRevokeIntegrationKey } from '../api/revoke-integration-key';
import { SCOPE_LABELS } from '../lib/labels';
import { SecretReveal } from './secret-reveal';

/** The keys integrators read the event feed with: create (shown once), list, revoke. */
export function IntegrationKeysPanel() {
  const keys = useIntegrationKeys();
  const create = useCreateIntegrationKey();
  const [name, setName] = useState('');
  const [personal, setPersonal] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [revoking, setRevoking] = useState<IntegrationKeySummary | null>(null);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const scopes: IntegrationScope[] = personal ? ['events', 'events:personal'] : ['events'];
    const parsed = createIntegrationKeySchema.safeParse({ name, scopes });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      document.getElementById('integration-key-name')?.focus();
      return;
    }
    setError(undefined);
    create.mutate(parsed.data, {
      onSuccess: (answer) => {
        setCreated({ name: parsed.data.name, key: answer.key });
        setName('');
        setPersonal(false);
        toast({ title: 'Key Created', description: `${parsed.data.name}: copy the key now, it is shown only once` });
      },
      onError: (failure) =>
        toast({ title: 'Create Failed', description: serverMessageOr(failure, 'Failed to create the key'), variant: 'destructive' }),
    });
  };

  return (
    <div className="space-y-4">
      <form
        noValidate
        onSubmit={onSubmit}
        aria-label="Create an integration key"
        className="grid gap-4 sm:grid-cols-[1fr_auto] sm:items-end"
      >
        <Field label="Key name" id="integration-key-name" error={error} hint="Who uses it, e.g. Accounting system" required>
          <Input name="name" value={name} maxLength={100} onChange={(event) => setName(event.target.value)} />
        </Field>
        <div className="flex flex-wrap items-center gap-4 sm:pb-7">
          <label className="inline-flex items-center gap-2 text-sm text-slate-900">
            <input type="checkbox" checked={personal} onChange={(event) => setPersonal(event.target.checked)} className="h-4 w-4" />
            Include personal data
          </label>
          <button type="submit" disabled={create.isPending} className={adminButton.primary}>
            {create.isPending ? 'Creating...' : 'Create Key'}
          </button>
        </div>
      </form>

      {keys.isPending ? (
        <Spinner label="Loading integration keys..." showLabel />
      ) : keys.isError ? (
        <p role="alert" className="text-red-700">
          {serverMessageOr(keys.error, 'Failed to load integration keys. Please try again.')}
        </p>
      ) : keys.data.length === 0 ? (
        <p className="text-slate-700">No integration keys yet.</p>
      ) : (
        <AdminTable label="Integration keys" columns={['Name', 'Key', 'Scopes', 'Created', 'Last used', 'Status', 'Actions']}>
          {keys.data.map((key) => (
            <tr key={key.id} className="text-slate-800">
              <td className="px-3 py-2 font-semibold text-slate-900">{key.name}</td>
              <td className="px-3 py-2 font-mono">{key.prefix}…</td>
              <td className="px-3 py-2">{key.scopes.map((scope) => SCOPE_LABELS[scope]).join(', ')}</td>
              <td className="whitespace-nowrap px-3 py-2">{formatDateTime(key.createdAt)}</td>
              <td className="whitespace-nowrap px-3 py-2">{key.lastUsedAt ? formatDateTime(key.lastUsedAt) : 'Never'}</td>
              <td className="whitespace-nowrap px-3 py-2">{key.revokedAt ? `Revoked ${formatDateTime(key.revokedAt)}` : 'Active'}</td>
              <td className="px-3 py-2">
                {key.revokedAt ? null : (
                  <button type="button" className={adminButton.small} aria-label={`Revoke ${key.name}`} onClick={() => setRevoking(key)}>
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </AdminTable>
      )}

      {created ? (
        <AdminDialog
          open
          onOpenChange={(open) => (open ? undefined : setCreated(null))}
          title="Integration Key Created"
          description={`The key for ${created.name}. Integrators send it as Authorization: Bearer <key>.`}
        >
          <SecretReveal label="Integration key" value={created.key} />
          <div className="mt-5 flex justify-end">
            <button type="button" className={adminButton.primary} onClick={() => setCreated(null)}>
              Done
            </button>
          </div>
        </AdminDialog>
      ) : null}
      {revoking ? <RevokeKeyDialog integrationKey={revoking} onClose={() => setRevoking(null)} /> : null}
    </div>
  );
}

function RevokeKeyDialog({ integrationKey, onClose }: { integrationKey: IntegrationKeySummary; onClose: () => void }) {
  const revoke = useRevokeIntegrationKey();
  const onConfirm = () =>
    revoke.mutate(integrationKey.id, {
      onSuccess: () => {
        toast({ title: 'Key Revoked', description: `${integrationKey.name} is refused from now on` });
        onClose();
      },
      onError: (failure) =>
        toast({ title: 'Revoke Failed', description: serverMessageOr(failure, 'Failed to revoke the key'), variant: 'destructive' }),
    });
  return (
    <AdminDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="Revoke Integration Key"
      description={`${integrationKey.name} will be refused at once, and its open feeds are closed. This cannot be undone.`}
    >
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" className={adminButton.secondary} onClick={onClose}>
          Cancel
        </button>
        <button type="button" className={adminButton.danger} disabled={revoke.isPending} onClick={onConfirm}>
          {revoke.isPending ? 'Revoking...' : 'Revoke Key'}
        </button>
      </div>
    </AdminDialog>
  );
}

import { RefreshCw } from 'lucide-react';
import { Spinner } from '../../../../components/ui/spinner';
import { AdminTable } from '../../components/admin-table';
import { adminButton } from '../../components/styles';
import { serverMessageOr } from '../../lib/errors';
import { useProjections } from '../api/get-projections';

/** Each read model's checkpoint, lag and error, for support staff investigating a stale screen. */
export function ProjectionsPanel() {
  const projections = useProjections();
  return (
    <div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-700">
          Event store head: <span className="font-mono">{projections.data?.head ?? '—'}</span>
        </p>
        <button type="button" onClick={() => void projections.refetch()} disabled={projections.isFetching} className={adminButton.small}>
          <RefreshCw aria-hidden="true" className="h-4 w-4" /> Refresh
        </button>
      </div>
      {projections.isPending ? (
        <Spinner label="Loading projection status..." showLabel />
      ) : projections.isError ? (
        <p role="alert" className="mt-2 text-red-700">
          {serverMessageOr(projections.error, 'Failed to load the projection status. Please try again.')}
        </p>
      ) : (
        <AdminTable label="Projection status" columns={['Projection', 'State', 'Checkpoint', 'Lag (events)', 'Error']} className="mt-2">
          {projections.data.projections.map((projection) => (
            <tr key={projection.name}>
              <td className="px-3 py-2 font-mono">{projection.name}</td>
              <td className={`px-3 py-2 font-semibold ${projection.state === 'failed' ? 'text-red-700' : 'text-green-800'}`}>
                {projection.state === 'failed' ? 'Failed' : 'Running'}
              </td>
              <td className="px-3 py-2 font-mono">{projection.checkpoint}</td>
              <td className="px-3 py-2">{projection.lag ?? 'unknown'}</td>
              <td className="px-3 py-2 text-red-700">
                {projection.error ? `${projection.error}${projection.errorEventId ? ` (event ${projection.errorEventId})` : ''}` : '—'}
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
    </div>
  );
}

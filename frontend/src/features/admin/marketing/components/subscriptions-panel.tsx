import { useEffect, useState } from 'react';
import { Field, Select } from '../../../../components/ui/form';
import { Spinner } from '../../../../components/ui/spinner';
import { formatDateTime } from '../../../../lib/format-date';
import { toast } from '../../../../lib/toast';
import { ListPager } from '../../components/list-pager';
import { adminButton } from '../../components/styles';
import { serverMessageOr } from '../../lib/errors';
import { totalPagesOf } from '../../lib/pagination';
import { useEmailSubscriptions, type SubscribedFilter } from '../api/get-email-subscriptions';
import { useUpdateEmailSubscription } from '../api/update-email-subscription';

/** The marketing list: filter by subscribed, and subscribe or unsubscribe an address. */
export function SubscriptionsPanel() {
  const [filter, setFilter] = useState<SubscribedFilter>('all');
  const [page, setPage] = useState(1);
  const list = useEmailSubscriptions(filter, page);
  const update = useUpdateEmailSubscription();

  useEffect(() => {
    if (list.isError)
      toast({ title: 'Error', description: 'Failed to load email subscriptions. Please try again.', variant: 'destructive' });
  }, [list.isError]);

  const pages = list.data ? totalPagesOf(list.data.total, list.data.limit) : 1;
  return (
    <div className="space-y-3">
      <Field label="Show" id="subscriptions-filter" className="max-w-xs">
        <Select
          value={filter}
          onChange={(event) => {
            setFilter(event.target.value as SubscribedFilter);
            setPage(1);
          }}
          options={[
            { value: 'all', label: 'All addresses' },
            { value: 'true', label: 'Subscribed' },
            { value: 'false', label: 'Unsubscribed' },
          ]}
        />
      </Field>
      {!list.data ? (
        list.isError ? (
          <p className="text-red-700">Failed to load email subscriptions. Please try again.</p>
        ) : (
          <Spinner label="Loading subscriptions..." showLabel />
        )
      ) : list.data.subscriptions.length === 0 ? (
        <p className="text-slate-700">No addresses.</p>
      ) : (
        <>
          <ul aria-label="Email subscriptions" className="divide-y divide-slate-200 rounded-lg border border-slate-200">
            {list.data.subscriptions.map((subscription) => (
              <li key={subscription.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
                <div>
                  <p className="font-medium text-slate-900">{subscription.email}</p>
                  <p className="text-sm text-slate-700">
                    {subscription.subscribed ? 'Subscribed' : 'Unsubscribed'} · updated {formatDateTime(subscription.updatedAt)}
                  </p>
                </div>
                <button
                  type="button"
                  className={adminButton.small}
                  disabled={update.isPending && update.variables?.id === subscription.id}
                  onClick={() =>
                    update.mutate(
                      { id: subscription.id, body: { subscribed: !subscription.subscribed } },
                      {
                        onSuccess: (updated) =>
                          toast({
                            title: 'Subscription Updated',
                            description: `${updated.email} is ${updated.subscribed ? 'subscribed' : 'unsubscribed'}`,
                          }),
                        onError: (error) =>
                          toast({
                            title: 'Update Failed',
                            description: serverMessageOr(error, 'Failed to update the subscription'),
                            variant: 'destructive',
                          }),
                      },
                    )
                  }
                >
                  {subscription.subscribed ? 'Unsubscribe' : 'Subscribe'}
                  <span className="sr-only"> {subscription.email}</span>
                </button>
              </li>
            ))}
          </ul>
          <ListPager page={page} pages={pages} onPage={setPage} />
        </>
      )}
    </div>
  );
}

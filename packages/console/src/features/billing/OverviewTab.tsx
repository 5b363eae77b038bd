import type { Plan, Subscription, Usage } from '@basalt/shared';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDate } from '@/components/ui/relative-time';
import { Skeleton } from '@/components/ui/skeleton';
import { SubscriptionStatusBadge } from './SubscriptionStatusBadge';
import { METRICS, UsageCard } from './UsageMeter';

/**
 * OverviewTab is the current subscription (plan, status, Renews On or Ends On) with Cancel Subscription while it
 * is active and not set to cancel, else Upgrade Plan; and the four usage cards.
 */
export function OverviewTab({
  subscription,
  usage,
  plans,
  onCancel,
  onUpgrade,
  upgrading,
}: {
  subscription: Subscription | undefined;
  usage: Usage | undefined;
  plans: Plan[];
  onCancel: () => void;
  onUpgrade: () => void;
  upgrading: boolean;
}) {
  const plan = plans.find((p) => p.id === subscription?.plan);
  const cancellable = subscription?.status === 'active' && !subscription.cancelAtPeriodEnd;
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle>Current Subscription</CardTitle>
          <CardDescription>Your plan and when it renews.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4 sm:flex sm:items-end sm:justify-between">
          {subscription ? (
            <dl className="grid gap-3 text-sm sm:grid-cols-3 sm:gap-8">
              <div>
                <dt className="text-muted-foreground">Plan</dt>
                <dd className="text-lg font-semibold">{plan?.name ?? subscription.plan}</dd>
              </div>
              <div>
                <dt className="text-muted-foreground">Status</dt>
                <dd className="mt-1">
                  <SubscriptionStatusBadge status={subscription.status} />
                </dd>
              </div>
              {subscription.renewalDate && (
                <div>
                  <dt className="text-muted-foreground">{subscription.cancelAtPeriodEnd ? 'Ends On' : 'Renews On'}</dt>
                  <dd className="mt-1 font-medium">{formatDate(subscription.renewalDate)}</dd>
                </div>
              )}
            </dl>
          ) : (
            <Skeleton className="h-12 w-64" />
          )}
          {subscription &&
            (cancellable ? (
              <Button variant="outline" className="text-destructive hover:text-destructive" onClick={onCancel}>
                Cancel Subscription
              </Button>
            ) : (
              <Button onClick={onUpgrade} disabled={upgrading}>
                Upgrade Plan
              </Button>
            ))}
        </CardContent>
      </Card>
      <section aria-label="Usage this period" className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {usage
          ? METRICS.map((entry) => <UsageCard key={entry.metric} usage={usage} entry={entry} />)
          : METRICS.map((entry) => <Skeleton key={entry.metric} className="h-36" />)}
      </section>
    </div>
  );
}

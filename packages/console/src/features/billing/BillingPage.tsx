import type { PlanId } from '@basalt/shared';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/ui/page-header';
import { ScrollRow } from '@/components/ui/scroll-row';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useAuth } from '@/features/auth/auth-context';
import { AccountsTab } from './AccountsTab';
import { CancelSubscriptionDialog, PaymentDialog } from './BillingDialogs';
import {
  useCancelSubscriptionMutation,
  useCheckoutMutation,
  useInvoicesQuery,
  usePlansQuery,
  useSubscriptionQuery,
  useUsageQuery,
} from './billing.queries';
import { InvoicesTab } from './InvoicesTab';
import { OverviewTab } from './OverviewTab';
import { PlansTab } from './PlansTab';
import { UsageTab } from './UsageTab';

const TABS = ['overview', 'usage', 'plans', 'invoices', 'accounts'] as const;
type Tab = (typeof TABS)[number];

/** BillingPage is /billing: Overview, Usage, Plans and Invoices, and for administrators every account's plan. */
export function BillingPage() {
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab') as Tab | null;
  const tab: Tab = asked && TABS.includes(asked) && (asked !== 'accounts' || user?.isAdmin) ? asked : 'overview';
  const setTab = (value: string) => setParams(value === 'overview' ? {} : { tab: value }, { replace: true });

  const usage = useUsageQuery();
  const subscription = useSubscriptionQuery();
  const invoices = useInvoicesQuery();
  const { plans } = usePlansQuery();
  const [paying, setPaying] = useState(false);
  const [clientSecret, setClientSecret] = useState<string | null>(null);
  const [canceling, setCanceling] = useState(false);
  const checkout = useCheckoutMutation(setClientSecret);
  const cancel = useCancelSubscriptionMutation();

  const choose = (planId: PlanId) => {
    setClientSecret(null);
    setPaying(true);
    checkout.mutate(planId, {
      // The dialog stays open only for an embedded payment; a redirect or a failure closes it.
      onSettled: (result) => {
        if (!result?.clientSecret) setPaying(false);
      },
    });
  };

  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader title="Billing" description="Your plan, usage and invoices." />
      <Tabs value={tab} onValueChange={setTab} className="grid grid-cols-1 gap-4">
        <ScrollRow active={tab}>
          <TabsList className="w-max min-w-full sm:min-w-0">
            <TabsTrigger value="overview">Overview</TabsTrigger>
            <TabsTrigger value="usage">Usage</TabsTrigger>
            <TabsTrigger value="plans">Plans</TabsTrigger>
            <TabsTrigger value="invoices">Invoices</TabsTrigger>
            {user?.isAdmin && <TabsTrigger value="accounts">Accounts</TabsTrigger>}
          </TabsList>
        </ScrollRow>
        <TabsContent value="overview">
          <OverviewTab
            subscription={subscription.data}
            usage={usage.data}
            plans={plans}
            onCancel={() => setCanceling(true)}
            // From Free, Upgrade is Starter's checkout; on a paid plan (one set to end) the Plans tab offers the
            // plans above it, never a cheaper one as an upgrade (issue 35).
            onUpgrade={() => ((subscription.data?.plan ?? 'free') === 'free' ? choose('starter') : setTab('plans'))}
            upgrading={checkout.isPending}
          />
        </TabsContent>
        <TabsContent value="usage">
          <UsageTab usage={usage.data} onUpgrade={() => setTab('plans')} />
        </TabsContent>
        <TabsContent value="plans">
          <PlansTab plans={plans} current={subscription.data?.plan} onChoose={choose} choosing={checkout.isPending} />
        </TabsContent>
        <TabsContent value="invoices">
          <InvoicesTab invoices={invoices.data} />
        </TabsContent>
        {user?.isAdmin && (
          <TabsContent value="accounts">
            <AccountsTab plans={plans} />
          </TabsContent>
        )}
      </Tabs>
      <PaymentDialog
        open={paying}
        preparing={checkout.isPending}
        clientSecret={clientSecret}
        onClose={() => setPaying(false)}
      />
      <CancelSubscriptionDialog
        open={canceling}
        onConfirm={() => cancel.mutate()}
        onClose={() => setCanceling(false)}
      />
    </div>
  );
}

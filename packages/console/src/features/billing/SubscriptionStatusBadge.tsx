import { Badge } from '@/components/ui/badge';

// The subscription's status: active is green; canceled, incomplete and unpaid have their own styles; anything
// else (no subscription, or a state Basalt does not name) reads No Subscription.

const STATUSES: Record<
  string,
  { label: string; className?: string; variant?: 'secondary' | 'warning' | 'destructive' }
> = {
  active: { label: 'Active', className: 'border-transparent bg-success/15 text-success' },
  canceled: { label: 'Canceled', variant: 'secondary' },
  incomplete: { label: 'Incomplete', variant: 'warning' },
  unpaid: { label: 'Unpaid', variant: 'destructive' },
};

/** SubscriptionStatusBadge shows a subscription status. */
export function SubscriptionStatusBadge({ status }: { status: string | null }) {
  const known = status ? STATUSES[status] : undefined;
  if (!known) return <Badge variant="outline">No Subscription</Badge>;
  return (
    <Badge variant={known.variant} className={known.className}>
      {known.label}
    </Badge>
  );
}

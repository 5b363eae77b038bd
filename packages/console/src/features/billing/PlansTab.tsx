import type { Plan, PlanId } from '@basalt/shared';
import { Check } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { formatAmount } from './UsageMeter';

// The four plans; the current one is marked and its button disabled, and the free plan cannot be chosen as a
// paid upgrade.

const price = (cents: number) => (cents === 0 ? 'Free' : `$${(cents / 100).toFixed(2)}`);
const cap = (value: number | null, unit = '') => (value === null ? 'Unlimited' : `${formatAmount(value)}${unit}`);
const storage = (mb: number | null) =>
  mb === null
    ? 'Unlimited'
    : mb >= 1024 * 1024
      ? `${mb / (1024 * 1024)} TB`
      : mb >= 1024
        ? `${mb / 1024} GB`
        : `${mb} MB`;

/** PlansTab shows the plan cards; choosing one starts its checkout. */
export function PlansTab({
  plans,
  current,
  onChoose,
  choosing,
}: {
  plans: Plan[];
  current: PlanId | undefined;
  onChoose: (plan: PlanId) => void;
  choosing: boolean;
}) {
  return (
    // Four cards fit beside the sidebar only on wide screens: at 1280 px a card's title and badge did not.
    <div className="grid grid-cols-1 gap-4 md:grid-cols-2 2xl:grid-cols-4">
      {plans.map((plan) => {
        const isCurrent = plan.id === current;
        const isFree = plan.id === 'free';
        // A plan below the current one is a change, not an upgrade.
        const currentPrice = plans.find((p) => p.id === current)?.priceCents ?? 0;
        const action = plan.priceCents < currentPrice ? `Switch to ${plan.name}` : `Upgrade to ${plan.name}`;
        return (
          <section
            key={plan.id}
            aria-label={`${plan.name} plan`}
            className={cn(
              'flex flex-col gap-4 rounded-lg border bg-card p-5',
              isCurrent && 'border-primary ring-1 ring-primary',
            )}
          >
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h3 className="min-w-0 text-lg font-semibold">{plan.name}</h3>
              {isCurrent && <Badge className="shrink-0">Current Plan</Badge>}
            </div>
            <p>
              <span className="text-3xl font-semibold">{price(plan.priceCents)}</span>
              {plan.priceCents > 0 && <span className="text-sm text-muted-foreground">/month</span>}
            </p>
            <ul className="grid gap-1.5 text-sm">
              <li>{cap(plan.limits.apiCalls)} API calls</li>
              <li>{storage(plan.limits.storageMb)} storage</li>
              <li>{cap(plan.limits.computeMinutes)} compute minutes</li>
              <li>
                {cap(plan.limits.databaseConnections)} database connection
                {plan.limits.databaseConnections === 1 ? '' : 's'}
              </li>
              {plan.features.map((feature) => (
                <li key={feature} className="flex gap-2 text-muted-foreground">
                  <Check aria-hidden className="mt-0.5 size-4 shrink-0 text-success" />
                  {feature}
                </li>
              ))}
            </ul>
            <Button
              className="mt-auto"
              variant={isCurrent || isFree ? 'outline' : 'default'}
              disabled={isCurrent || isFree || choosing}
              onClick={() => onChoose(plan.id)}
            >
              {isCurrent ? 'Current Plan' : isFree ? 'Free Plan' : action}
            </Button>
          </section>
        );
      })}
    </div>
  );
}

import { Check, Lightbulb } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDate } from '@/components/ui/relative-time';
import { Skeleton } from '@/components/ui/skeleton';
import {
  type Insight,
  useApplyInsightMutation,
  useInsightsQuery,
  useMarkImplementedMutation,
} from './insights.queries';

const IMPACT_VARIANT = { HIGH: 'destructive', MEDIUM: 'secondary', LOW: 'outline' } as const;

function InsightItem({ insight: i }: { insight: Insight }) {
  const mark = useMarkImplementedMutation();
  const apply = useApplyInsightMutation();
  const busy = mark.isPending || apply.isPending;
  const variant = IMPACT_VARIANT[i.impact as keyof typeof IMPACT_VARIANT] ?? 'outline';
  return (
    <li className="grid gap-2 rounded-lg border p-3" data-implemented={i.implemented}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="text-sm font-medium">{i.title}</span>
        <Badge variant={variant}>{i.impact.toLowerCase()} impact</Badge>
      </div>
      <p className="text-sm text-muted-foreground">{i.description}</p>
      <p className="text-sm">
        <span className="font-medium">Suggested: </span>
        {i.suggestedAction}
      </p>
      <div className="flex flex-wrap gap-2">
        {i.implemented ? (
          <span className="inline-flex items-center gap-1 text-xs text-muted-foreground">
            <Check aria-hidden className="size-3.5" /> Implemented {formatDate(i.implementedAt)}
          </span>
        ) : (
          <>
            {i.canApply && (
              <Button size="sm" disabled={busy} onClick={() => apply.mutate(i.id)}>
                Apply
              </Button>
            )}
            <Button size="sm" variant="outline" disabled={busy} onClick={() => mark.mutate(i.id)}>
              Mark as implemented
            </Button>
          </>
        )}
      </div>
    </li>
  );
}

/** InsightsCard lists what the insight job suggests for the account's tables. */
export function InsightsCard() {
  const { data, isPending, isError } = useInsightsQuery();
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Lightbulb aria-hidden className="size-4" /> Performance insights
        </CardTitle>
        <CardDescription>
          Checked every hour: filters and orders without an index, slow counts, very wide rows and large histories.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <Skeleton className="h-20 w-full" />
        ) : isError ? (
          <p className="text-sm text-muted-foreground">Insights could not be loaded.</p>
        ) : data.length === 0 ? (
          <p className="text-sm text-muted-foreground">No insights: your tables look fine.</p>
        ) : (
          <ul className="grid gap-2">
            {data.map((i) => (
              <InsightItem key={i.id} insight={i} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

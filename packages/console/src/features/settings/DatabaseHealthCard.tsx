import type { DatabaseCheck, DatabaseHealth } from '@basalt/shared';
import { Activity, CircleCheck, CircleX, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { RelativeTime } from '@/components/ui/relative-time';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-errors';
import { cn } from '@/lib/cn';
import { HealthStatusBadge } from './HealthStatusBadge';
import { useDatabaseHealthQuery, useRunHealthCheckMutation } from './health.queries';
import { engineFacts, formatMilliseconds, formatPercent, healthStatus } from './health-status';

function Metric({ label, value, hint }: { label: string; value: ReactNode; hint?: ReactNode }) {
  return (
    <div className="grid gap-1 rounded-lg border bg-background/50 p-3">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums">{value}</dd>
      {hint && <dd className="text-xs text-muted-foreground">{hint}</dd>}
    </div>
  );
}

function Metrics({ health }: { health: DatabaseHealth }) {
  const m = health.metrics;
  const utilization = Math.min(Math.max(m.connectionUtilization, 0), 1);
  return (
    <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      <Metric
        label="Connection use"
        value={formatPercent(utilization)}
        hint={
          <span aria-hidden className="mt-1 block h-1.5 overflow-hidden rounded-full bg-muted">
            <span className="block h-full rounded-full bg-primary" style={{ width: formatPercent(utilization) }} />
          </span>
        }
      />
      <Metric
        label="Connections"
        value={`${m.activeConnections} / ${m.maxConnections}`}
        hint={`${m.idleConnections} idle`}
      />
      <Metric label="Average query" value={formatMilliseconds(m.avgQueryTime)} />
      <Metric label="Slow queries" value={m.slowQueries.toLocaleString('en-US')} />
    </dl>
  );
}

function EngineFacts({ details }: { details: Record<string, unknown> }) {
  const facts = engineFacts(details);
  if (facts.length === 0) return null;
  return (
    <dl aria-label="Engine details" className="grid gap-x-6 gap-y-1.5 text-sm sm:grid-cols-2">
      {facts.map((fact) => (
        <div key={fact.label} className="flex justify-between gap-4 border-b border-dashed py-1">
          <dt className="text-muted-foreground">{fact.label}</dt>
          <dd className="font-medium tabular-nums">{fact.value}</dd>
        </div>
      ))}
    </dl>
  );
}

function IntegrityResult({ integrity }: { integrity: NonNullable<DatabaseCheck['integrity']> }) {
  const failed = integrity.checks.filter((c) => !c.ok);
  return (
    <section
      aria-label="Integrity check"
      className={cn(
        'grid gap-3 rounded-lg border p-3 text-sm',
        integrity.ok ? 'border-primary/30 bg-primary/5' : 'border-destructive/40 bg-destructive/5',
      )}
    >
      <p className="flex items-center gap-2 font-medium">
        {integrity.ok ? (
          <CircleCheck aria-hidden className="size-4 shrink-0 text-primary" />
        ) : (
          <TriangleAlert aria-hidden className="size-4 shrink-0 text-destructive" />
        )}
        {integrity.ok
          ? 'Integrity check passed'
          : `Integrity check found problems in ${failed.length} of ${integrity.checks.length} checks`}
        <span className="font-normal text-muted-foreground">({formatMilliseconds(integrity.durationMs)})</span>
      </p>
      <ul className="grid gap-2">
        {integrity.checks.map((check) => (
          <li key={check.name} className="grid gap-1">
            <span className="flex items-start gap-2">
              {check.ok ? (
                <CircleCheck aria-label="Passed" className="mt-0.5 size-3.5 shrink-0 text-primary" />
              ) : (
                <CircleX aria-label="Failed" className="mt-0.5 size-3.5 shrink-0 text-destructive" />
              )}
              <span>
                <span className="font-medium">{check.name}</span>
                <span className="text-muted-foreground">: {check.message}</span>
              </span>
            </span>
            {check.problems.length > 0 && (
              <ul className="ml-5.5 grid list-disc gap-0.5 pl-4 font-mono text-xs break-words">
                {check.problems.map((problem) => (
                  <li key={problem}>{problem}</li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** CheckFailed stands in for the metrics when the latest check failed: older figures would read as current. */
function CheckFailed({ error }: { error: unknown }) {
  return (
    <div
      role="alert"
      className="flex items-start gap-2 rounded-lg border border-destructive/40 bg-destructive/5 p-3 text-sm text-destructive"
    >
      <CircleX aria-hidden className="mt-0.5 size-4 shrink-0" />
      <p className="min-w-0 break-words">
        Error checking database health: {errorMessage(error, 'An unknown error occurred')}
      </p>
    </div>
  );
}

/** DatabaseHealthCard is Settings › Database's health card: the badge, the metrics and Run Health Check. */
export function DatabaseHealthCard() {
  const health = useDatabaseHealthQuery();
  const check = useRunHealthCheckMutation();
  // The latest check's failure, if it failed: a failed manual check counts until a later automatic one answers.
  const failure =
    check.isError && check.submittedAt > health.dataUpdatedAt ? check.error : health.isError ? health.error : null;
  const status = healthStatus({
    checking: health.isFetching || check.isPending,
    failed: failure !== null,
    connected: health.data?.connected,
  });

  let body: ReactNode;
  if (health.isPending && !health.isError) {
    body = (
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="health-skeleton">
        {Array.from({ length: 4 }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
          <Skeleton key={i} className="h-20" />
        ))}
      </div>
    );
  } else if (failure !== null) {
    body = <CheckFailed error={failure} />;
  } else if (health.data) {
    body = (
      <div className="grid gap-4">
        <div className="flex flex-col gap-1 text-sm sm:flex-row sm:items-baseline sm:justify-between">
          <p>
            {health.data.message}
            {health.data.version && <span className="text-muted-foreground"> · {health.data.version}</span>}
          </p>
          <p className="text-xs text-muted-foreground">
            Checked <RelativeTime value={health.data.checkedAt} />
          </p>
        </div>
        <Metrics health={health.data} />
        <EngineFacts details={health.data.details} />
      </div>
    );
  }

  return (
    <Card>
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid gap-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <CardTitle>Database Health</CardTitle>
            <HealthStatusBadge status={status} />
          </div>
          <CardDescription>Checked every minute. A full check also verifies the database's integrity.</CardDescription>
        </div>
        <Button variant="outline" size="sm" className="w-fit" disabled={check.isPending} onClick={() => check.mutate()}>
          <Activity />
          {check.isPending ? 'Checking...' : 'Run Health Check'}
        </Button>
      </CardHeader>
      <CardContent className="grid gap-4">
        {body}
        {check.data?.integrity && <IntegrityResult integrity={check.data.integrity} />}
      </CardContent>
    </Card>
  );
}

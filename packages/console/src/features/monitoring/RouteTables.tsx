import type { MetricsReport, RouteMetrics } from '@basalt/shared';
import { Link } from 'react-router';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { cn } from '@/lib/cn';
import { formatCount, formatMs, formatRate, logSearchOf } from './metric-format';

// The tables under the charts: requests per API family, the slowest routes, and the routes with the most errors
// (each linked to its entries in the log viewer).

const FAMILY_NAMES: Record<string, string> = {
  api: 'Console API',
  rest: 'REST',
  auth: 'Auth',
  storage: 'Storage',
  functions: 'Edge Functions',
  realtime: 'Realtime',
  graphql: 'GraphQL',
};

/** familyName is an API family's name as the screens write it. */
export const familyName = (family: string) => FAMILY_NAMES[family] ?? family;

function RouteCell({ route }: { route: RouteMetrics }) {
  return (
    <TableCell className="max-w-0 font-mono text-xs">
      <span className="block truncate" title={route.route}>
        {route.route}
      </span>
    </TableCell>
  );
}

function Panel({
  title,
  empty,
  className,
  children,
}: {
  title: string;
  empty: string | null;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <Card className={cn('min-w-0', className)}>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent className="px-0 pb-2">
        {empty ? <p className="px-6 py-6 text-center text-sm text-muted-foreground">{empty}</p> : children}
      </CardContent>
    </Card>
  );
}

/** RouteTables lists a report's families, slowest routes and top errors. */
export function RouteTables({ report }: { report: MetricsReport }) {
  const none = report.totals.requests === 0 ? 'No requests in this range' : null;
  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
      <Panel title="Slowest routes" empty={none} className="lg:col-span-2">
        <Table aria-label="Slowest routes" className="table-fixed">
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              <TableHead>Route</TableHead>
              <TableHead className="hidden w-24 text-right sm:table-cell">Requests</TableHead>
              <TableHead className="w-20 text-right">p95</TableHead>
              <TableHead className="w-20 text-right">p99</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {report.slowest.map((r) => (
              <TableRow key={r.route}>
                <RouteCell route={r} />
                <TableCell className="hidden whitespace-nowrap text-right tabular-nums sm:table-cell">
                  {formatCount(r.requests)}
                </TableCell>
                <TableCell className="whitespace-nowrap text-right tabular-nums">{formatMs(r.p95Ms)}</TableCell>
                <TableCell className="whitespace-nowrap text-right tabular-nums">{formatMs(r.p99Ms)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Panel>
      <Panel title="By API" empty={none}>
        <Table aria-label="Requests by API">
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              <TableHead>API</TableHead>
              <TableHead className="text-right">Requests</TableHead>
              <TableHead className="text-right">Errors</TableHead>
              <TableHead className="text-right">p95</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {report.families.map((f) => (
              <TableRow key={f.family}>
                <TableCell>{familyName(f.family)}</TableCell>
                <TableCell className="whitespace-nowrap text-right tabular-nums">{formatCount(f.requests)}</TableCell>
                <TableCell className="whitespace-nowrap text-right tabular-nums">{formatRate(f.errorRate)}</TableCell>
                <TableCell className="whitespace-nowrap text-right tabular-nums">{formatMs(f.p95Ms)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Panel>
      <Panel title="Top errors" empty={none ?? (report.topErrors.length === 0 ? 'No errors in this range' : null)}>
        <Table aria-label="Top errors" className="table-fixed">
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              <TableHead>Route</TableHead>
              <TableHead className="w-14 text-right">4xx</TableHead>
              <TableHead className="w-14 text-right">5xx</TableHead>
              <TableHead className="w-16 text-right">
                <span className="sr-only">Log entries</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {report.topErrors.map((r) => (
              <TableRow key={r.route}>
                <RouteCell route={r} />
                <TableCell className="whitespace-nowrap text-right tabular-nums">{formatCount(r.errors4xx)}</TableCell>
                <TableCell className="whitespace-nowrap text-right tabular-nums">{formatCount(r.errors5xx)}</TableCell>
                <TableCell className="text-right">
                  <Link
                    className="text-xs font-medium text-primary underline-offset-4 hover:underline"
                    to={`/settings?tab=logs&search=${encodeURIComponent(logSearchOf(r.route))}`}
                    aria-label={`Log entries of ${r.route}`}
                  >
                    Logs
                  </Link>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Panel>
    </div>
  );
}

import { DEFAULT_TABLE_ACCESS, describeAccess, type TableResponse } from '@basalt/shared';
import { ArrowRight, ShieldCheck, Table2 } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { MethodBadge } from './EndpointList';
import { PathText } from './PathText';
import { TableEndpoints } from './TableEndpoints';

/** fieldCountLabel is "1 field" or "N fields". */
export function fieldCountLabel(count: number): string {
  return `${count} ${count === 1 ? 'field' : 'fields'}`;
}

/** TableEndpointsCard is one table on the Table API page: its fields and its endpoints, each with a copy button. */
export function TableEndpointsCard({ table, origin }: { table: TableResponse; origin: string }) {
  const fields = Object.entries(table.schema);
  return (
    <Card aria-labelledby={`table-api-${table.id}`}>
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid min-w-0 gap-1.5">
          <CardTitle id={`table-api-${table.id}`} className="flex min-w-0 flex-wrap items-center gap-2">
            <Table2 aria-hidden className="size-4 shrink-0 text-muted-foreground" />
            <Link to={`/tables/${table.id}`} className="min-w-0 break-all hover:underline">
              {table.name}
            </Link>
            <Badge variant="secondary">{fieldCountLabel(fields.length)}</Badge>
          </CardTitle>
          {table.description && <CardDescription>{table.description}</CardDescription>}
        </div>
        <Button asChild variant="outline" size="sm" className="w-fit">
          <Link
            to={`/record-api?table=${encodeURIComponent(table.name)}`}
            aria-label={`Record API docs for ${table.name}`}
          >
            Record API docs
            <ArrowRight />
          </Link>
        </Button>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-4">
        <ul aria-label={`Fields of ${table.name}`} className="flex flex-wrap gap-1.5">
          {fields.map(([name, column]) => (
            <li key={name}>
              <Badge variant="outline" className="font-mono font-normal">
                {name}
                <span className="text-muted-foreground">{column.type}</span>
              </Badge>
            </li>
          ))}
        </ul>
        <p className="flex items-start gap-2 text-sm text-muted-foreground">
          <ShieldCheck aria-hidden className="mt-0.5 size-4 shrink-0" />
          <span>
            Your app's users, through <code className="font-mono text-xs">/rest/v1</code>:{' '}
            {describeAccess(table.access ?? DEFAULT_TABLE_ACCESS)}.{' '}
            <Link to={`/tables/${table.id}?tab=access`} className="font-medium text-primary hover:underline">
              Access rules
            </Link>
          </span>
        </p>
        <TableEndpoints table={table.name}>
          {(endpoints) => (
            <ul aria-label={`Endpoints of ${table.name}`} className="divide-y rounded-lg border">
              {endpoints.map((endpoint) => (
                <li
                  key={`${endpoint.method} ${endpoint.path}`}
                  className="grid grid-cols-[auto_minmax(0,1fr)_auto] items-center gap-x-3 gap-y-0.5 py-1.5 pr-1.5 pl-3"
                >
                  <MethodBadge method={endpoint.method} />
                  <div className="grid min-w-0 gap-0.5 md:grid-cols-[minmax(0,1fr)_auto] md:items-center md:gap-3">
                    <code className="min-w-0 font-mono text-[13px] wrap-anywhere">
                      <PathText path={endpoint.path} />
                    </code>
                    <span className="text-xs text-muted-foreground md:text-right md:text-sm">
                      {endpoint.description}
                    </span>
                  </div>
                  <CopyButton
                    value={`${origin}${endpoint.path}`}
                    label={`Copy ${endpoint.method} ${endpoint.path}`}
                    variant="ghost"
                  />
                </li>
              ))}
            </ul>
          )}
        </TableEndpoints>
      </CardContent>
    </Card>
  );
}

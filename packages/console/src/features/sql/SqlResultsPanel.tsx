import { SQL_LIMITS, type SqlExecutionResult, type SqlStatementResult } from '@basalt/shared';
import { CheckCircle2, Download, FileCode2, XCircle } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { downloadTextFile } from '@/lib/download';
import { columnsOf, displayValue, toCsv } from './sql-csv';

function StatementCard({ index, outcome }: { index: number; outcome: SqlStatementResult }) {
  const shown = outcome.result.slice(0, SQL_LIMITS.previewRows);
  const columns = columnsOf(shown);
  return (
    <section className="grid gap-3 rounded-lg border p-3 sm:p-4" data-testid="statement-result">
      <div className="flex flex-wrap items-center gap-2">
        {outcome.success ? (
          <CheckCircle2 aria-label="Succeeded" className="size-4 text-success" />
        ) : (
          <XCircle aria-label="Failed" className="size-4 text-destructive" />
        )}
        <span className="text-sm font-medium">Statement {index + 1}</span>
        <Badge variant={outcome.success ? 'default' : 'destructive'}>{outcome.success ? 'Success' : 'Failed'}</Badge>
        <span className="text-xs text-muted-foreground">
          {outcome.executionTime} ms · {outcome.rowCount} {outcome.rowCount === 1 ? 'row' : 'rows'}
        </span>
        {outcome.result.length > 0 && (
          <Button
            variant="ghost"
            size="sm"
            className="ml-auto"
            onClick={() => downloadTextFile(toCsv(outcome.result), `statement-${index + 1}.csv`, 'text/csv')}
          >
            <Download aria-hidden /> CSV
          </Button>
        )}
      </div>
      <pre className="max-h-32 overflow-auto rounded-md bg-muted px-3 py-2 font-mono text-xs whitespace-pre-wrap break-words">
        {outcome.statement}
      </pre>
      {outcome.error && (
        <p role="alert" className="text-sm break-words text-destructive">
          {outcome.error}
        </p>
      )}
      {shown.length > 0 && (
        <>
          <Table containerClassName="rounded-md border">
            <TableHeader>
              <TableRow>
                {columns.map((c) => (
                  <TableHead key={c} className="font-mono text-xs">
                    {c}
                  </TableHead>
                ))}
              </TableRow>
            </TableHeader>
            <TableBody>
              {shown.map((row, r) => (
                // Result rows have no identity of their own: their position is theirs.
                // biome-ignore lint/suspicious/noArrayIndexKey: see above.
                <TableRow key={r}>
                  {columns.map((c) => (
                    <TableCell key={c} className="max-w-64 truncate font-mono text-xs">
                      {displayValue(row[c])}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <p className="text-xs text-muted-foreground">
            Showing {shown.length} of {outcome.rowCount} rows
          </p>
        </>
      )}
    </section>
  );
}

/** SqlResultsPanel shows a run: its label, message and a card per statement; or the placeholder. */
export function SqlResultsPanel({ result, onClear }: { result: SqlExecutionResult | null; onClear: () => void }) {
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle>Results</CardTitle>
        <Button variant="outline" size="sm" disabled={!result} onClick={onClear}>
          Clear Results
        </Button>
      </CardHeader>
      <CardContent className="grid gap-3">
        {!result ? (
          <EmptyState icon={FileCode2} title="Execute a SQL file to see results" />
        ) : (
          <>
            <div className="flex flex-wrap items-center gap-2">
              <Badge variant={result.dryRun ? 'warning' : 'default'}>
                {result.dryRun ? 'Validation Only' : 'Executed'}
              </Badge>
              <span className="text-sm">
                {result.summary.successfulStatements} of {result.summary.totalStatements} statements succeeded
              </span>
              {result.summary.failedStatements > 0 && (
                <Badge variant="destructive">{result.summary.failedStatements} failed</Badge>
              )}
            </div>
            <p className="text-sm text-muted-foreground">{result.message}</p>
            {result.results.map((outcome, i) => (
              // Statements repeat; their place in the run is what tells them apart.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above.
              <StatementCard key={i} index={i} outcome={outcome} />
            ))}
          </>
        )}
      </CardContent>
    </Card>
  );
}

import type { EdgeFunction, FunctionInvocation } from '@basalt/shared';
import { ChevronRight } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { LoadErrorState } from '@/components/ui/empty-state';
import { formatDateTime, formatRelativeTime } from '@/components/ui/relative-time';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { FunctionLogLines } from './FunctionLogLines';
import { useFunctionInvocationsQuery, useFunctionStatsQuery } from './functions.queries';
import { InvocationsChart } from './InvocationsChart';

// A function's invocations: a chart of the last day and the newest calls, each opening to its output.

function InvocationRow({ invocation }: { invocation: FunctionInvocation }) {
  const [open, setOpen] = useState(false);
  const failed = invocation.error !== null || invocation.status >= 500;
  return (
    <li className="border-b last:border-b-0">
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="flex w-full items-center gap-2 px-2 py-1.5 text-left text-xs hover:bg-accent"
      >
        <ChevronRight aria-hidden className={cn('size-3.5 shrink-0 transition-transform', open && 'rotate-90')} />
        <Badge variant={failed ? 'destructive' : invocation.status >= 400 ? 'warning' : 'default'}>
          {invocation.status}
        </Badge>
        <span className="w-14 shrink-0 font-mono">{invocation.method}</span>
        <span className="min-w-0 flex-1 truncate text-muted-foreground">
          {invocation.error ?? `${invocation.logs.length} log line${invocation.logs.length === 1 ? '' : 's'}`}
        </span>
        <span className="hidden shrink-0 text-muted-foreground sm:inline">
          {invocation.durationMs} ms · {invocation.cpuMs} ms CPU
        </span>
        <span className="shrink-0 text-muted-foreground" title={formatDateTime(invocation.createdAt)}>
          {formatRelativeTime(invocation.createdAt)}
        </span>
      </button>
      {open && (
        <div className="grid gap-1 px-2 pb-2">
          <p className="text-xs text-muted-foreground sm:hidden">
            {invocation.durationMs} ms · {invocation.cpuMs} ms CPU · {invocation.memoryMb} MB
          </p>
          <FunctionLogLines logs={invocation.logs} />
        </div>
      )}
    </li>
  );
}

/** FunctionLogsPanel shows a function's chart and invocation log, refreshed while open. */
export function FunctionLogsPanel({ fn }: { fn: EdgeFunction }) {
  const stats = useFunctionStatsQuery(fn.id);
  const invocations = useFunctionInvocationsQuery(fn.id);
  return (
    <div className="grid gap-4">
      {stats.data && <InvocationsChart stats={stats.data} />}
      {invocations.isError ? (
        <LoadErrorState
          title="Failed to load invocations"
          error={invocations.error}
          onRetry={() => void invocations.refetch()}
        />
      ) : invocations.isPending ? (
        <Spinner className="mx-auto my-6" />
      ) : invocations.data.length === 0 ? (
        <p className="py-6 text-center text-sm text-muted-foreground">No invocations yet.</p>
      ) : (
        <ul aria-label="Invocations" className="max-h-80 overflow-auto rounded-md border">
          {invocations.data.map((invocation) => (
            <InvocationRow key={invocation.id} invocation={invocation} />
          ))}
        </ul>
      )}
    </div>
  );
}

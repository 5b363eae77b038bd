import type { FunctionLogLine } from '@basalt/shared';
import { cn } from '@/lib/cn';

const LEVEL_STYLE: Record<FunctionLogLine['level'], string> = {
  debug: 'text-muted-foreground',
  info: 'text-foreground',
  warn: 'text-warning',
  error: 'text-destructive',
};

/** FunctionLogLines shows what a function wrote with console.*, one line each, coloured by level. */
export function FunctionLogLines({ logs }: { logs: FunctionLogLine[] }) {
  if (logs.length === 0) return <p className="text-xs text-muted-foreground">No output.</p>;
  return (
    <ol className="max-h-48 overflow-auto rounded-md border bg-muted/40 p-2 font-mono text-xs">
      {logs.map((line, i) => (
        // Lines have no id; their order is their identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: log lines never move.
        <li key={i} className={cn('break-all whitespace-pre-wrap', LEVEL_STYLE[line.level])}>
          <span className="mr-2 uppercase opacity-60">{line.level}</span>
          {line.message}
        </li>
      ))}
    </ol>
  );
}

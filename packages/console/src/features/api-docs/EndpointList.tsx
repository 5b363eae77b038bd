import { cn } from '@/lib/cn';
import type { EndpointDoc } from './api-reference';

const METHOD_STYLES: Record<EndpointDoc['method'], string> = {
  GET: 'bg-sky-500/12 text-sky-700 dark:text-sky-300',
  POST: 'bg-primary/12 text-primary',
  PUT: 'bg-amber-500/15 text-amber-700 dark:text-amber-300',
  PATCH: 'bg-amber-500/15 text-amber-700 dark:text-amber-300',
  DELETE: 'bg-destructive/12 text-destructive',
};

/** MethodBadge is an HTTP method, coloured by what it does. */
export function MethodBadge({ method }: { method: EndpointDoc['method'] }) {
  return (
    <span
      className={cn(
        'inline-flex w-16 shrink-0 justify-center rounded-md px-1.5 py-0.5 font-mono text-[11px] font-semibold',
        METHOD_STYLES[method],
      )}
    >
      {method}
    </span>
  );
}

/** EndpointList lists endpoints: method, path (wraps on phones) and what each does; compact stacks them. */
export function EndpointList({ endpoints, compact = false }: { endpoints: readonly EndpointDoc[]; compact?: boolean }) {
  return (
    <ul className="divide-y rounded-lg border">
      {endpoints.map((endpoint) => (
        <li
          key={`${endpoint.method} ${endpoint.path}`}
          className={cn('flex flex-col gap-1 px-3 py-2.5', !compact && 'sm:flex-row sm:items-center sm:gap-3')}
        >
          <div className="flex min-w-0 items-center gap-3">
            <MethodBadge method={endpoint.method} />
            <code className="min-w-0 font-mono text-[13px] break-all">{endpoint.path}</code>
          </div>
          <span className={cn('text-muted-foreground', compact ? 'text-xs' : 'text-sm sm:ml-auto sm:text-right')}>
            {endpoint.description}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** CodeBlock is a block of code that scrolls sideways instead of breaking the layout. */
export function CodeBlock({ children, label, className }: { children: string; label?: string; className?: string }) {
  return (
    <pre
      title={label}
      className={cn(
        'overflow-x-auto rounded-lg border bg-muted/50 p-3 font-mono text-[12.5px] leading-relaxed',
        className,
      )}
    >
      <code>{children}</code>
    </pre>
  );
}

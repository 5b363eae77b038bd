import type { LogEntry } from '@basalt/shared';
import { formatDateTime } from '@/components/ui/relative-time';
import { LogLevelBadge } from './LogLevelBadge';

const valueText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** LogViewerEntry is one line of the settings log viewer: level, time, source, path, message and context. */
export function LogViewerEntry({ entry }: { entry: LogEntry }) {
  const context = Object.entries(entry.context);
  return (
    <li className="grid gap-1 px-5 py-3 text-sm sm:px-6">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
        <LogLevelBadge level={entry.level} />
        <time dateTime={entry.timestamp} className="tabular-nums">
          {formatDateTime(entry.timestamp)}
        </time>
        <span className="font-medium text-foreground/80">{entry.source}</span>
        {entry.path && <code className="font-mono break-all">{entry.path}</code>}
      </div>
      <p className="break-words">{entry.message}</p>
      {context.length > 0 && (
        <dl className="flex flex-wrap gap-x-3 gap-y-0.5 font-mono text-xs text-muted-foreground">
          {context.map(([key, value]) => (
            <div key={key} className="flex min-w-0">
              <dt>{key}=</dt>
              <dd className="break-all text-foreground/80">{valueText(value)}</dd>
            </div>
          ))}
        </dl>
      )}
    </li>
  );
}

import { AlertCircle, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-errors';
import { cn } from '@/lib/cn';

/** EmptyState fills a list that has nothing to show: an icon, the spec's text and what to do next. */
export function EmptyState({
  icon: Icon,
  title,
  description,
  action,
  className,
}: {
  icon?: LucideIcon;
  title: string;
  description?: ReactNode;
  action?: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn('flex flex-col items-center gap-2 px-4 py-10 text-center', className)}>
      {Icon && (
        <span className="mb-1 flex size-10 items-center justify-center rounded-full bg-muted text-muted-foreground">
          <Icon className="size-5" />
        </span>
      )}
      <p className="text-sm font-medium">{title}</p>
      {description && <p className="max-w-sm text-sm text-muted-foreground">{description}</p>}
      {action && <div className="mt-2">{action}</div>}
    </div>
  );
}

/**
 * LoadErrorState is the EmptyState of a load that failed: what failed, the error's message, and Retry. Pass
 * `retrying` (the query's isFetching) to disable Retry while a retry runs.
 */
export function LoadErrorState({
  title,
  error,
  onRetry,
  retrying,
}: {
  title: string;
  error: unknown;
  onRetry: () => void;
  retrying?: boolean;
}) {
  return (
    <EmptyState
      icon={AlertCircle}
      title={title}
      description={errorMessage(error)}
      action={
        <Button variant="outline" size="sm" disabled={retrying} onClick={onRetry}>
          Retry
        </Button>
      }
    />
  );
}

import { CircleAlert, CircleCheck, CircleHelp, CircleX, LoaderCircle, type LucideIcon } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { HEALTH_LABELS, type HealthStatus } from './health-status';

const STYLE: Record<HealthStatus, { variant: 'default' | 'secondary' | 'destructive' | 'warning'; icon: LucideIcon }> =
  {
    checking: { variant: 'secondary', icon: LoaderCircle },
    error: { variant: 'destructive', icon: CircleAlert },
    connected: { variant: 'default', icon: CircleCheck },
    disconnected: { variant: 'destructive', icon: CircleX },
    unknown: { variant: 'secondary', icon: CircleHelp },
  };

/** HealthStatusBadge shows the database's health: Checking, Error, Connected, Disconnected or Unknown. */
export function HealthStatusBadge({ status }: { status: HealthStatus }) {
  const { variant, icon: Icon } = STYLE[status];
  return (
    <Badge variant={variant} data-status={status} aria-live="polite">
      <Icon aria-hidden className={status === 'checking' ? 'animate-spin' : undefined} />
      {HEALTH_LABELS[status]}
    </Badge>
  );
}

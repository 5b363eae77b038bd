import { Badge } from '@/components/ui/badge';

type BadgeVariant = 'default' | 'secondary' | 'outline' | 'destructive' | 'warning';

/** levelVariant styles a level: errors destructive, warnings amber, info in the accent, the rest muted. */
export function levelVariant(level: string): BadgeVariant {
  switch (level.toLowerCase()) {
    case 'error':
    case 'fatal':
      return 'destructive';
    case 'warn':
    case 'warning':
      return 'warning';
    case 'info':
      return 'default';
    default:
      return 'secondary';
  }
}

/** LogLevelBadge shows a log entry's level. */
export function LogLevelBadge({ level }: { level: string }) {
  return (
    <Badge variant={levelVariant(level)} className="font-mono uppercase tracking-wide">
      {level}
    </Badge>
  );
}

import {
  CheckCircle2,
  Code,
  Database,
  FilePlus,
  Flag,
  KeyRound,
  type LucideIcon,
  Table2,
  UserPlus,
} from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDate } from '@/components/ui/relative-time';
import { Skeleton } from '@/components/ui/skeleton';
import { type Achievement, useAchievementsQuery } from './achievements.queries';

const ICONS: Record<string, LucideIcon> = {
  table: Table2,
  'file-plus': FilePlus,
  key: KeyRound,
  'user-plus': UserPlus,
  code: Code,
  flag: Flag,
  database: Database,
};

function AchievementItem({ achievement: a }: { achievement: Achievement }) {
  const Icon = a.status === 'COMPLETED' ? CheckCircle2 : (ICONS[a.icon] ?? Flag);
  const done = a.status === 'COMPLETED';
  return (
    <li className="flex items-start gap-3 rounded-lg border p-3" data-status={a.status}>
      <Icon aria-hidden className={`mt-0.5 size-5 shrink-0 ${done ? 'text-primary' : 'text-muted-foreground'}`} />
      <div className="grid min-w-0 flex-1 gap-1.5">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <span className="text-sm font-medium">{a.name}</span>
          {done ? (
            <Badge variant="secondary">{a.completedAt ? formatDate(a.completedAt) : 'Done'}</Badge>
          ) : (
            <span className="text-xs text-muted-foreground">
              {a.progress} / {a.target}
            </span>
          )}
        </div>
        <span className="text-xs text-muted-foreground">{a.description}</span>
        <div
          className="h-1.5 overflow-hidden rounded-full bg-muted"
          role="progressbar"
          aria-label={a.name}
          aria-valuemin={0}
          aria-valuemax={a.target}
          aria-valuenow={a.progress}
        >
          <div className="h-full rounded-full bg-primary" style={{ width: `${(100 * a.progress) / a.target}%` }} />
        </div>
      </div>
    </li>
  );
}

/** AchievementsCard is the Profile page's onboarding milestones with their progress. */
export function AchievementsCard() {
  const { data, isPending, isError } = useAchievementsQuery();
  const done = data?.filter((a) => a.status === 'COMPLETED').length ?? 0;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Achievements</CardTitle>
        <CardDescription>
          {data ? `${done} of ${data.length} milestones reached.` : 'Your first steps with Basalt.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : isError ? (
          <p className="text-sm text-muted-foreground">Achievements could not be loaded.</p>
        ) : (
          <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
            {data.map((a) => (
              <AchievementItem key={a.id} achievement={a} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

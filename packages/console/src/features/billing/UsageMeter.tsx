import { type Usage, type UsageMetric, usagePercent } from '@basalt/shared';
import { Activity, Cable, Cpu, HardDrive, type LucideIcon } from 'lucide-react';
import { cn } from '@/lib/cn';

// The four metered quantities as the Overview and Usage tabs show them: a label, used of limit, a progress bar
// (clamped to 0..100; an unlimited cap shows an empty bar and "Unlimited").

/** METRICS describes each metric: its label, icon and where its cap is in a Usage. */
export const METRICS: { metric: UsageMetric; label: string; unit: string; icon: LucideIcon; max: keyof Usage }[] = [
  { metric: 'apiCalls', label: 'API Calls', unit: '', icon: Activity, max: 'maxApiCalls' },
  { metric: 'storageMb', label: 'Storage', unit: ' MB', icon: HardDrive, max: 'maxStorageMb' },
  { metric: 'computeMinutes', label: 'Compute Minutes', unit: '', icon: Cpu, max: 'maxComputeMinutes' },
  {
    metric: 'databaseConnections',
    label: 'Database Connections',
    unit: '',
    icon: Cable,
    max: 'maxDatabaseConnections',
  },
];

const number = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** formatAmount shows a usage number with thousands separators and at most 2 decimals. */
export const formatAmount = (value: number) => number.format(value);

/** limitOf reads a metric's cap from a Usage (null: unlimited). */
export function limitOf(usage: Usage, max: keyof Usage): number | null {
  const value = usage[max];
  return typeof value === 'number' ? value : null;
}

/** ProgressBar is a horizontal bar filled to `percent` (0..100), red from 100 and amber from 80. */
export function ProgressBar({ percent, label }: { percent: number; label: string }) {
  const clamped = Math.min(100, Math.max(0, percent));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(clamped)}
      className="h-2 w-full overflow-hidden rounded-full bg-muted"
    >
      <div
        className={cn(
          'h-full rounded-full transition-[width]',
          clamped >= 100 ? 'bg-destructive' : clamped >= 80 ? 'bg-warning' : 'bg-primary',
        )}
        style={{ width: `${clamped}%` }}
      />
    </div>
  );
}

/** UsageCard is one metric's card: used of limit and its bar. */
export function UsageCard({ usage, entry }: { usage: Usage; entry: (typeof METRICS)[number] }) {
  const used = usage[entry.metric];
  const limit = limitOf(usage, entry.max);
  const percent = usagePercent(used, limit);
  const Icon = entry.icon;
  return (
    <div className="grid gap-3 rounded-lg border bg-card p-4">
      <div className="flex items-center justify-between gap-2">
        <span className="text-sm font-medium">{entry.label}</span>
        <Icon aria-hidden className="size-4 text-muted-foreground" />
      </div>
      <div className="text-2xl font-semibold tabular-nums">
        {formatAmount(used)}
        {entry.unit}
      </div>
      <ProgressBar percent={percent} label={`${entry.label} used`} />
      <div className="text-xs text-muted-foreground">
        {limit === null ? 'Unlimited' : `of ${formatAmount(limit)}${entry.unit} · ${Math.round(percent)}% used`}
      </div>
    </div>
  );
}

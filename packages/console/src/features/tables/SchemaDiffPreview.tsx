import { ArrowRightLeft, Link2, Minus, Pencil, Plus, ShieldCheck, ShieldOff, WandSparkles } from 'lucide-react';
import { cn } from '@/lib/cn';
import type { SchemaDiffKind, SchemaDiffLine } from './schema-diff';

const STYLES: Record<SchemaDiffKind, { icon: typeof Plus; className: string }> = {
  renameTable: { icon: Pencil, className: 'text-foreground' },
  describe: { icon: Pencil, className: 'text-foreground' },
  drop: { icon: Minus, className: 'text-destructive' },
  rename: { icon: ArrowRightLeft, className: 'text-foreground' },
  retype: { icon: ArrowRightLeft, className: 'text-warning' },
  optional: { icon: ShieldOff, className: 'text-foreground' },
  allowDuplicates: { icon: ShieldOff, className: 'text-foreground' },
  add: { icon: Plus, className: 'text-primary' },
  require: { icon: ShieldCheck, className: 'text-warning' },
  unique: { icon: ShieldCheck, className: 'text-warning' },
  index: { icon: Plus, className: 'text-primary' },
  dropIndex: { icon: ShieldOff, className: 'text-foreground' },
  reference: { icon: Link2, className: 'text-foreground' },
  default: { icon: WandSparkles, className: 'text-foreground' },
};

/** SchemaDiffPreview lists what saving the schema editor will do, one line per change. */
export function SchemaDiffPreview({ lines }: { lines: readonly SchemaDiffLine[] }) {
  if (lines.length === 0) {
    return <p className="text-sm text-muted-foreground">No changes yet. Edit the table to see what saving will do.</p>;
  }
  return (
    <ol aria-label="Planned changes" className="grid gap-2">
      {lines.map((line, index) => {
        const { icon: Icon, className } = STYLES[line.kind];
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: the lines are recomputed as a whole; order is identity.
          <li key={index} className={cn('flex items-start gap-2 text-sm', className)}>
            <Icon aria-hidden className="mt-0.5 size-4 shrink-0" />
            <span className="min-w-0 break-words">{line.text}</span>
          </li>
        );
      })}
    </ol>
  );
}

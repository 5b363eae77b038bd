import { Search } from 'lucide-react';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { cn } from '@/lib/cn';
import { LEVEL_FILTERS, type LevelFilter } from './log-filter';

/** isLevelFilter tells whether a value is one of the level choices. */
export const isLevelFilter = (value: string | null): value is LevelFilter => LEVEL_FILTERS.some((l) => l === value);

/**
 * LogFilterControls are the search box and the level choice of both log views (Settings › Logs filters in the
 * browser, /logs asks the server).
 */
export function LogFilterControls({
  search,
  level,
  onSearch,
  onLevel,
  className,
}: {
  search: string;
  level: LevelFilter;
  onSearch: (search: string) => void;
  onLevel: (level: LevelFilter) => void;
  className?: string;
}) {
  return (
    <div className={cn('flex flex-col gap-2 sm:flex-row', className)}>
      <div className="relative flex-1">
        <Search
          aria-hidden
          className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
        />
        <Input
          type="search"
          aria-label="Search logs"
          placeholder="Search logs…"
          className="pl-8"
          value={search}
          onChange={(e) => onSearch(e.target.value)}
        />
      </div>
      <NativeSelect
        aria-label="Level"
        containerClassName="sm:w-36"
        value={level}
        onChange={(e) => isLevelFilter(e.target.value) && onLevel(e.target.value)}
      >
        {LEVEL_FILTERS.map((l) => (
          <option key={l} value={l}>
            {l === 'all' ? 'All' : l}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}

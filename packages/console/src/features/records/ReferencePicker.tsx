import type { TableResponse } from '@basalt/shared';
import { Popover } from 'radix-ui';
import { type KeyboardEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { labelText } from './reference-labels';
import { useReferenceSearch } from './reference-picker.queries';

// The reference picker: a search box over the referenced table (the server searches and pages), its rows by label
// and id, "Load more" (or scrolling to the end, or moving past the last row) for the next page, and Clear for a
// column that may be empty. It is a combobox: the arrows move through the rows, Enter picks one, Escape leaves
// the value as it was.

const SEARCH_DELAY_MS = 200;

function useDebounced(value: string, delay: number): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

/** ReferencePickerProps: the referenced table, its label column, and what picking does. */
export interface ReferencePickerProps {
  /** The column being edited. */
  column: string;
  table: TableResponse;
  labelColumn: string | null;
  /** The id the cell holds now (null: empty). */
  value: number | null;
  /** Whether the column may be emptied (not required). */
  nullable: boolean;
  onPick: (id: number | null) => void;
  onCancel: () => void;
  /** What the popover is anchored to: the cell's current value. */
  children: ReactNode;
}

/** ReferencePicker picks a row of the referenced table for a reference cell. */
export function ReferencePicker({
  column,
  table,
  labelColumn,
  value,
  nullable,
  onPick,
  onCancel,
  children,
}: ReferencePickerProps) {
  const [typed, setTyped] = useState('');
  const search = useReferenceSearch(table, labelColumn, useDebounced(typed, SEARCH_DELAY_MS));
  const rows = search.data?.pages.flatMap((page) => page.rows) ?? [];
  const total = search.data?.pages[0]?.total ?? 0;
  const [active, setActive] = useState(0);
  const listId = useId();
  const optionId = (index: number) => `${listId}-option-${index}`;

  // A new search starts at its first row; the active row stays in view as it moves.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new search is what resets the active row
  useEffect(() => setActive(0), [search.data?.pages[0]]);
  useEffect(() => {
    document.getElementById(optionId(active))?.scrollIntoView?.({ block: 'nearest' });
  });

  const loadMore = () => {
    if (search.hasNextPage && !search.isFetchingNextPage) void search.fetchNextPage();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      if (active >= rows.length - 1) loadMore();
      setActive((index) => Math.min(index + 1, Math.max(rows.length - 1, 0)));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((index) => Math.max(index - 1, 0));
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      setActive(event.key === 'Home' ? 0 : Math.max(rows.length - 1, 0));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const row = rows[active];
      if (row) onPick(row.id);
    }
  };
  const searchLabel = labelColumn && labelColumn !== 'id' ? `by ${labelColumn} or id` : 'by id';
  return (
    <Popover.Root open onOpenChange={(open) => !open && onCancel()}>
      <Popover.Anchor asChild>
        <div className="min-w-32">{children}</div>
      </Popover.Anchor>
      <Popover.Portal>
        <Popover.Content
          align="start"
          sideOffset={4}
          collisionPadding={8}
          aria-label={`Pick a row of ${table.name} for ${column}`}
          className="z-50 grid w-80 max-w-[calc(100vw-1rem)] gap-2 rounded-lg border bg-popover p-2 text-popover-foreground shadow-lg"
          data-testid="reference-picker"
        >
          <Input
            role="combobox"
            aria-expanded
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={rows[active] ? optionId(active) : undefined}
            aria-label={`Search ${table.name} ${searchLabel}`}
            placeholder={`Search ${table.name} ${searchLabel}`}
            autoFocus
            autoComplete="off"
            spellCheck={false}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            onKeyDown={onKeyDown}
            className="h-8"
          />
          <div
            id={listId}
            role="listbox"
            aria-label={`Rows of ${table.name}`}
            className="max-h-64 overflow-y-auto"
            onScroll={(event) => {
              const box = event.currentTarget;
              if (box.scrollTop + box.clientHeight >= box.scrollHeight - 40) loadMore();
            }}
          >
            {rows.map((row, index) => {
              const text = labelText(row, labelColumn, table.schema);
              return (
                <div
                  key={row.id}
                  tabIndex={-1}
                  id={optionId(index)}
                  role="option"
                  aria-selected={index === active}
                  className={cn(
                    'flex cursor-pointer items-center justify-between gap-3 rounded-md px-2 py-1.5 text-sm',
                    index === active && 'bg-accent text-accent-foreground',
                    row.id === value && 'font-medium',
                  )}
                  onMouseEnter={() => setActive(index)}
                  onClick={() => onPick(row.id)}
                  onKeyDown={(event) => event.key === 'Enter' && onPick(row.id)}
                >
                  <span className={cn('truncate', text === '' && 'text-muted-foreground italic')}>
                    {text === '' ? '(no label)' : text}
                  </span>
                  <span className="shrink-0 font-mono text-xs text-muted-foreground">#{row.id}</span>
                </div>
              );
            })}
          </div>
          {search.isPending && search.fetchStatus !== 'idle' && <Spinner label="Searching" />}
          {search.isError && <p className="text-xs text-destructive">The rows could not be loaded.</p>}
          {search.fetchStatus === 'idle' && !search.isError && rows.length === 0 && (
            <p className="px-2 py-1 text-sm text-muted-foreground">No rows of {table.name} match.</p>
          )}
          <div className="flex items-center justify-between gap-2 text-xs text-muted-foreground">
            <span aria-live="polite">
              {rows.length > 0 ? `${rows.length} of ${total.toLocaleString('en-US')}` : ''}
            </span>
            <div className="flex gap-1">
              {search.hasNextPage && (
                <Button variant="ghost" size="sm" onClick={loadMore} disabled={search.isFetchingNextPage}>
                  {search.isFetchingNextPage ? 'Loading…' : 'Load more'}
                </Button>
              )}
              {nullable && value !== null && (
                <Button variant="ghost" size="sm" onClick={() => onPick(null)}>
                  Clear
                </Button>
              )}
            </div>
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

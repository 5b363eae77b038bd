import { useVirtualizer } from '@tanstack/react-virtual';
import { Eye, Folder, Link2, MoveRight, Trash2 } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { cn } from '@/lib/cn';
import type { FileEntry } from './storage-files.queries';

// The browser's rows. A long folder renders only the rows in view (@tanstack/react-virtual, rows measured since a
// long name wraps at 375 px) inside a box of its own height, and asks for the next page once the person scrolls
// within LOAD_AHEAD rows of the end, so 10,000 files take scrolling, not clicks.

/** WINDOW_FROM is the length from which only the rows in view are rendered. */
export const WINDOW_FROM = 100;
const LOAD_AHEAD = 60;
const ROW_ESTIMATE = 45;

/** sizeOf writes a byte count for people. */
export const sizeOf = (bytes: unknown) => {
  const n = Number(bytes ?? 0);
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
};

/** FileAction is what a row's buttons ask for, with the file's full path. */
export interface FileActions {
  open: (path: string) => void;
  preview: (file: { path: string; type: string; size: string }) => void;
  sign: (path: string) => void;
  move: (path: string) => void;
  remove: (path: string) => void;
}

/** FileList shows the loaded entries of the folder `prefix`, with a check box per file. */
export function FileList({
  prefix,
  entries,
  hasMore,
  loading,
  onLoadMore,
  selected,
  onSelect,
  actions,
}: {
  prefix: string;
  entries: readonly FileEntry[];
  hasMore: boolean;
  loading: boolean;
  onLoadMore: () => void;
  selected: ReadonlySet<string>;
  onSelect: (paths: string[], on: boolean) => void;
  actions: FileActions;
}) {
  const scrollBox = useRef<HTMLDivElement>(null);
  const windowed = entries.length >= WINDOW_FROM;
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scrollBox.current,
    estimateSize: () => ROW_ESTIMATE,
    overscan: 12,
    enabled: windowed,
    initialRect: { width: 0, height: 600 },
  });
  const items = windowed ? virtualizer.getVirtualItems() : null;
  const lastShown = items ? (items.at(-1)?.index ?? 0) : entries.length - 1;
  useEffect(() => {
    if (hasMore && !loading && lastShown >= entries.length - LOAD_AHEAD) onLoadMore();
  }, [hasMore, loading, lastShown, entries.length, onLoadMore]);

  const pathOf = (entry: FileEntry) => (prefix ? `${prefix}/${entry.name}` : entry.name);
  const filePaths = entries.flatMap((entry) => (entry.id === null ? [] : [pathOf(entry)]));
  const checked = filePaths.filter((path) => selected.has(path)).length;
  const shown = items
    ? items.flatMap((item) => {
        const entry = entries[item.index];
        return entry ? [{ entry, index: item.index }] : [];
      })
    : entries.map((entry, index) => ({ entry, index }));
  const before = items?.[0]?.start ?? 0;
  const after = items && items.length > 0 ? virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0) : 0;
  return (
    <div ref={scrollBox} className={cn(windowed && 'max-h-[70vh] overflow-y-auto')} data-testid="files-scroll">
      <Table aria-label="Files" aria-rowcount={hasMore ? -1 : entries.length + 1}>
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            <TableHead className="w-8">
              <Checkbox
                aria-label="Select all loaded files"
                disabled={filePaths.length === 0}
                // The shared check box draws its half state as a tick: checked means every loaded file.
                checked={checked > 0 && checked === filePaths.length}
                onCheckedChange={(on) => onSelect(filePaths, on === true)}
              />
            </TableHead>
            <TableHead>Name</TableHead>
            <TableHead className="hidden sm:table-cell">Size</TableHead>
            <TableHead className="hidden md:table-cell">Type</TableHead>
            <TableHead className="w-32 text-right">
              <span className="sr-only">Actions</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {before > 0 && <tr aria-hidden style={{ height: before }} />}
          {shown.map(({ entry, index }) => {
            const path = pathOf(entry);
            const meta = entry.metadata ?? {};
            const type = String(meta.mimetype ?? '');
            const file = { path, type, size: sizeOf(meta.size) };
            return (
              <TableRow
                key={`${entry.id ?? 'folder'}:${entry.name}`}
                data-index={index}
                ref={windowed ? virtualizer.measureElement : undefined}
                aria-rowindex={index + 2}
                aria-selected={entry.id === null ? undefined : selected.has(path)}
              >
                <TableCell className="w-8">
                  {entry.id !== null && (
                    <Checkbox
                      aria-label={`Select ${entry.name}`}
                      checked={selected.has(path)}
                      onCheckedChange={(on) => onSelect([path], on === true)}
                    />
                  )}
                </TableCell>
                <TableCell className="max-w-40 [overflow-wrap:anywhere] sm:max-w-none">
                  {entry.id === null ? (
                    <button
                      type="button"
                      className="flex items-center gap-2 font-medium"
                      onClick={() => actions.open(path)}
                    >
                      <Folder aria-hidden className="size-4 text-primary" />
                      {entry.name}
                    </button>
                  ) : (
                    <button
                      type="button"
                      className="text-left font-mono text-xs hover:underline"
                      onClick={() => actions.preview(file)}
                    >
                      {entry.name}
                    </button>
                  )}
                </TableCell>
                <TableCell className="hidden sm:table-cell">{entry.id === null ? '—' : file.size}</TableCell>
                <TableCell className="hidden text-muted-foreground md:table-cell">{type}</TableCell>
                <TableCell className="text-right">
                  {entry.id !== null && (
                    <div className="flex justify-end gap-0.5">
                      <Button
                        variant="ghost"
                        size="icon-sm"
                        aria-label={`Preview ${entry.name}`}
                        onClick={() => actions.preview(file)}
                      >
                        <Eye />
                      </Button>
                      <Button
                        variant="ghost"
                        size="icon-sm"
                        aria-label={`Copy a signed URL of ${entry.name}`}
                        onClick={() => actions.sign(path)}
                      >
                        <Link2 />
                      </Button>
                      <Button
                        variant="ghost"
                        size="icon-sm"
                        aria-label={`Move or rename ${entry.name}`}
                        onClick={() => actions.move(path)}
                      >
                        <MoveRight />
                      </Button>
                      <Button
                        variant="ghost"
                        size="icon-sm"
                        aria-label={`Delete ${entry.name}`}
                        className="text-destructive hover:text-destructive"
                        onClick={() => actions.remove(path)}
                      >
                        <Trash2 />
                      </Button>
                    </div>
                  )}
                </TableCell>
              </TableRow>
            );
          })}
          {after > 0 && <tr aria-hidden style={{ height: after }} />}
        </TableBody>
      </Table>
    </div>
  );
}

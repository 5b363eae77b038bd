import { useInfiniteQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { storageKeys, unwrap } from './storage.queries';

// The file browser's listing, a page at a time as the list scrolls. Name A–Z pages with list v2's cursors (the
// server goes on from the last name, so page 20 costs what page 1 does). The other orders use /object/list,
// which sorts the whole folder on the server for every page (up to 100,000 objects) and pages by offset: the
// order is right, but each page costs a scan of the folder.

/** CURSOR_PAGE is how many entries one list v2 call answers. */
export const CURSOR_PAGE = 500;
/** OFFSET_PAGE is how many entries one /object/list call answers (its largest limit). */
export const OFFSET_PAGE = 1000;

/** FileSort is an order the file browser lists in: a column Supabase's list sorts by, and a direction. */
export interface FileSort {
  column: 'name' | 'updated_at';
  order: 'asc' | 'desc';
}

/** FileEntry is one line of the browser: a folder (id null) or a file, named relative to the folder shown. */
export interface FileEntry {
  name: string;
  id: string | null;
  metadata: Record<string, unknown> | null;
}

interface FilePage {
  entries: FileEntry[];
  next?: string | number;
}

/** pagesByCursor is true for the order list v2 pages in: name, ascending. */
export const pagesByCursor = (sort: FileSort) => sort.column === 'name' && sort.order === 'asc';

/** entriesOfV2 turns a list v2 page (full paths; folders end in `/`) into lines named within `dir`. */
export function entriesOfV2(
  dir: string,
  page: {
    folders: { name: string }[];
    objects: { name: string; id: string; metadata: unknown }[];
  },
): FileEntry[] {
  const lines = [
    ...page.folders.map((folder) => ({
      key: folder.name,
      name: folder.name.slice(dir.length, -1),
      id: null,
      metadata: null,
    })),
    ...page.objects.map((object) => ({
      key: object.name,
      name: object.name.slice(dir.length),
      id: object.id,
      metadata: (object.metadata ?? null) as Record<string, unknown> | null,
    })),
  ];
  // The server scanned in name order; a folder stands where its first name stood.
  lines.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return lines.map(({ key: _key, ...entry }) => entry);
}

/**
 * useFilesQuery lists a bucket's entries directly under `prefix` (a folder, '' for the top), those whose name starts
 * with `search` when given, in `sort`'s order; fetchNextPage goes on where the last page stopped.
 */
export function useFilesQuery(bucket: string, prefix: string, search: string, sort: FileSort) {
  const byCursor = pagesByCursor(sort);
  const dir = prefix ? `${prefix}/` : '';
  return useInfiniteQuery({
    queryKey: [...storageKeys.objects(bucket, prefix), search, sort.column, sort.order],
    initialPageParam: undefined as string | number | undefined,
    getNextPageParam: (last: FilePage) => last.next,
    queryFn: async ({ pageParam }): Promise<FilePage> => {
      const files = getSupabase().storage.from(bucket);
      if (byCursor) {
        const page = unwrap(
          await files.listV2({
            prefix: dir + search,
            with_delimiter: true,
            limit: CURSOR_PAGE,
            ...(typeof pageParam === 'string' ? { cursor: pageParam } : {}),
          }),
        );
        return { entries: entriesOfV2(dir, page), next: page.hasNext ? page.nextCursor : undefined };
      }
      const offset = typeof pageParam === 'number' ? pageParam : 0;
      const rows = unwrap(
        await files.list(prefix, { limit: OFFSET_PAGE, offset, search: search || undefined, sortBy: sort }),
      );
      return {
        entries: rows.map((row) => ({
          name: row.name,
          id: row.id ?? null,
          metadata: (row.metadata ?? null) as Record<string, unknown> | null,
        })),
        next: rows.length === OFFSET_PAGE ? offset + OFFSET_PAGE : undefined,
      };
    },
  });
}

// The numbered pager (System Logs): the first page, the last page and the pages within 1 of
// the current one, with an ellipsis wherever pages are left out. A search over a large log knows no last page.

/** PagerItem is a page number, or a gap standing for the pages left out. */
export type PagerItem = { kind: 'page'; page: number } | { kind: 'gap'; after: number };

/**
 * pagerItems lists what the pager shows for `current` of `totalPages` (none when there are no pages). When the
 * last page is not known (`endKnown: false`: a search counted only up to a limit), totalPages are the pages known
 * so far and the list ends in a gap instead of a last page.
 */
export function pagerItems(current: number, totalPages: number, { endKnown = true } = {}): PagerItem[] {
  if (totalPages < 1) return [];
  const at = Math.min(Math.max(current, 1), totalPages);
  const shown = [...new Set([1, at - 1, at, at + 1, ...(endKnown ? [totalPages] : [])])]
    .filter((page) => page >= 1 && page <= totalPages)
    .sort((a, b) => a - b);
  const items: PagerItem[] = [];
  let previous = 0;
  for (const page of shown) {
    if (previous > 0 && page - previous > 1) items.push({ kind: 'gap', after: previous });
    items.push({ kind: 'page', page });
    previous = page;
  }
  if (!endKnown && previous < totalPages) items.push({ kind: 'gap', after: previous });
  return items;
}

import { type RefObject, useCallback, useLayoutEffect, useState } from 'react';

// The grid renders only the rows in view (and a few around them) once a page is long: a page of 1,000 records is
// some 40 table rows in the document, not 1,000, and spacer rows keep the scroll height true. Rows have one height
// (cells truncate), measured from the first row drawn. Short pages render whole.

/** WINDOW_FROM is the page length from which rows are windowed. */
export const WINDOW_FROM = 200;
const OVERSCAN = 10;
const DEFAULT_ROW_HEIGHT = 41;

/** RowWindow is the slice of rows to render and the heights of the spacers above and below it. */
export interface RowWindow {
  start: number;
  end: number;
  before: number;
  after: number;
  onScroll: () => void;
}

/** useRowWindow follows a scroll box's position and tells which of `count` rows to render. */
export function useRowWindow(
  count: number,
  scrollBox: RefObject<HTMLElement | null>,
  firstRow: RefObject<HTMLElement | null>,
): RowWindow {
  const [view, setView] = useState({ top: 0, height: 0, rowHeight: DEFAULT_ROW_HEIGHT });
  const measure = useCallback(() => {
    const box = scrollBox.current;
    if (!box) return;
    const measured = firstRow.current?.offsetHeight;
    setView((current) => {
      const next = {
        top: box.scrollTop,
        height: box.clientHeight,
        rowHeight: measured && measured > 0 ? measured : current.rowHeight,
      };
      return next.top === current.top && next.height === current.height && next.rowHeight === current.rowHeight
        ? current
        : next;
    });
  }, [scrollBox, firstRow]);
  useLayoutEffect(() => {
    measure();
  }, [measure]);

  if (count < WINDOW_FROM) return { start: 0, end: count, before: 0, after: 0, onScroll: measure };
  const first = Math.floor(view.top / view.rowHeight);
  const visible = Math.ceil(view.height / view.rowHeight);
  const start = Math.max(0, Math.min(count, first - OVERSCAN));
  const end = Math.min(count, first + visible + OVERSCAN * 2);
  return {
    start,
    end,
    before: start * view.rowHeight,
    after: (count - end) * view.rowHeight,
    onScroll: measure,
  };
}

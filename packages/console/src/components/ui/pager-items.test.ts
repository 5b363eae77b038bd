import { describe, expect, it } from 'vitest';
import { type PagerItem, pagerItems } from './pager-items';

// The pager as a string: "1 … 4 [5] 6 … 10".
function render(items: PagerItem[], current: number): string {
  return items
    .map((item) => (item.kind === 'gap' ? '…' : item.page === current ? `[${item.page}]` : String(item.page)))
    .join(' ');
}

describe('pagerItems', () => {
  it.each([
    [1, 0, ''],
    [1, 1, '[1]'],
    [1, 2, '[1] 2'],
    [2, 3, '1 [2] 3'],
    [1, 5, '[1] 2 … 5'],
    [2, 5, '1 [2] 3 … 5'],
    [3, 5, '1 2 [3] 4 5'],
    [4, 5, '1 … 3 [4] 5'],
    [5, 5, '1 … 4 [5]'],
    [5, 10, '1 … 4 [5] 6 … 10'],
    [10, 10, '1 … 9 [10]'],
    [1, 100, '[1] 2 … 100'],
  ])('page %i of %i shows %s', (current, total, expected) => {
    expect(render(pagerItems(current, total), current)).toBe(expected);
  });

  it('clamps a current page outside the range', () => {
    expect(render(pagerItems(12, 10), 10)).toBe('1 … 9 [10]');
    expect(render(pagerItems(0, 10), 1)).toBe('[1] 2 … 10');
  });

  it.each([
    [1, 501, '[1] 2 …'],
    [3, 501, '1 2 [3] 4 …'],
    [500, 501, '1 … 499 [500] 501'],
    [501, 501, '1 … 500 [501]'],
  ])('page %i of %i known pages (no last page) shows %s', (current, known, expected) => {
    expect(render(pagerItems(current, known, { endKnown: false }), current)).toBe(expected);
  });

  it('gives every gap a distinct key', () => {
    const gaps = pagerItems(5, 10).filter((item) => item.kind === 'gap');
    expect(gaps).toEqual([
      { kind: 'gap', after: 1 },
      { kind: 'gap', after: 6 },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { historyChange } from './history.fixtures';
import { changesAfter, groupChangesByDay } from './history-days';

const at = (id: number, timestamp: string) => historyChange({ id, timestamp });

// Local times, so the days do not depend on the machine's time zone.
const local = (day: number, hour: number) => new Date(2026, 2, day, hour, 0, 0).toISOString();
const now = new Date(2026, 2, 5, 18, 0, 0);

describe('groupChangesByDay', () => {
  it('groups by local day, newest day first, newest change first, naming today and yesterday', () => {
    const groups = groupChangesByDay(
      [at(1, local(1, 9)), at(4, local(5, 8)), at(2, local(4, 23)), at(5, local(5, 17)), at(3, 'not a date')],
      now,
    );
    expect(groups.map((g) => g.label)).toEqual([
      'Today',
      'Yesterday',
      new Date(2026, 2, 1).toLocaleDateString(undefined, {
        weekday: 'long',
        year: 'numeric',
        month: 'long',
        day: 'numeric',
      }),
      'Unknown date',
    ]);
    expect(groups.map((g) => g.changes.map((c) => c.id))).toEqual([[5, 4], [2], [1], [3]]);
    expect(groups[0]?.key).toBe('2026-03-05');
  });
});

describe('changesAfter', () => {
  it('lists the changes after a version, oldest first', () => {
    const changes = [at(9, local(5, 9)), at(7, local(5, 8)), at(8, local(5, 8)), at(3, local(4, 8))];
    expect(changesAfter(changes, 7).map((c) => c.id)).toEqual([8, 9]);
    expect(changesAfter(changes, 9)).toEqual([]);
  });
});

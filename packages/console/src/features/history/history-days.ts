import type { HistoryChange } from '@basalt/shared';

// The timeline's grouping: one group per calendar day in the reader's time zone, newest day first, each day's
// changes newest first.

/** DayGroup is the changes of one day. */
export interface DayGroup {
  /** key is the day as YYYY-MM-DD (local time); "unknown" for unreadable timestamps. */
  key: string;
  label: string;
  changes: HistoryChange[];
}

const pad = (n: number) => String(n).padStart(2, '0');

/** dayKey is a date's local calendar day: "2026-03-05". */
export function dayKey(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

function dayLabel(date: Date, now: Date): string {
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (dayKey(date) === dayKey(now)) return 'Today';
  if (dayKey(date) === dayKey(yesterday)) return 'Yesterday';
  return date.toLocaleDateString(undefined, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' });
}

/** groupChangesByDay groups changes by local day, newest day first, and each day's changes newest first. */
export function groupChangesByDay(changes: readonly HistoryChange[], now = new Date()): DayGroup[] {
  const groups = new Map<string, DayGroup>();
  for (const change of changes) {
    const date = new Date(change.timestamp);
    const valid = !Number.isNaN(date.getTime());
    const key = valid ? dayKey(date) : 'unknown';
    let group = groups.get(key);
    if (!group) {
      group = { key, label: valid ? dayLabel(date, now) : 'Unknown date', changes: [] };
      groups.set(key, group);
    }
    group.changes.push(change);
  }
  // "unknown" sorts after every digit, so flip it to the end explicitly.
  const sorted = [...groups.values()].sort((a, b) =>
    a.key === 'unknown' ? 1 : b.key === 'unknown' ? -1 : b.key.localeCompare(a.key),
  );
  for (const group of sorted) group.changes.sort((a, b) => b.id - a.id);
  return sorted;
}

/** changesAfter lists the changes made after a version, oldest first: what restoring that version reverts. */
export function changesAfter(changes: readonly HistoryChange[], versionId: number): HistoryChange[] {
  return changes.filter((change) => change.id > versionId).sort((a, b) => a.id - b.id);
}

/** formatTime is a change's time of day: "14:02". */
export function formatTime(timestamp: string): string {
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

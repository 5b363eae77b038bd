import { describe, expect, it } from 'vitest';
import { filterLogs, logExportFileName } from './log-filter';

const entries = [
  { id: 1, level: 'info', message: 'Server started', source: 'server', path: null, context: { port: 8787 } },
  { id: 2, level: 'error', message: 'Query failed', source: 'records', path: '/api/table/orders', context: null },
  { id: 3, level: 'warn', message: 'Slow request', source: 'http', path: '/rest/v1/Orders', context: { ms: 812 } },
  { id: 4, level: 'debug', message: 'Cache miss', source: 'tables', path: null, context: { table: 'invoices' } },
];
const ids = (level: Parameters<typeof filterLogs>[1]['level'], search: string) =>
  filterLogs(entries, { level, search }).map((e) => e.id);

describe('filterLogs', () => {
  it.each([
    ['all', '', [1, 2, 3, 4]],
    ['info', '', [1]],
    ['warn', '', [3]],
    ['error', '', [2]],
    ['debug', '', [4]],
    // message, case-insensitive
    ['all', 'QUERY FAILED', [2]],
    // source
    ['all', 'records', [2]],
    // path, case-insensitive across both entries that mention orders
    ['all', 'orders', [2, 3]],
    // context keys and values
    ['all', '8787', [1]],
    ['all', 'invoices', [4]],
    // level and search together
    ['warn', 'orders', [3]],
    ['error', 'cache', []],
    // surrounding spaces do not count
    ['all', '  slow  ', [3]],
  ] as const)('level %s, search "%s"', (level, search, expected) => {
    expect(ids(level, search)).toEqual(expected);
  });
});

describe('logExportFileName', () => {
  it('names the file by the local date', () => {
    expect(logExportFileName(new Date(2026, 10, 22, 23, 59))).toBe('basalt-logs-2026-11-22.json');
    expect(logExportFileName(new Date(2027, 0, 5, 0, 1))).toBe('basalt-logs-2027-01-05.json');
  });
});

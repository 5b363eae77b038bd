import type { HistoryChange, SqlFunction } from '@basalt/shared';
import { json } from '@/test/fake-backend';
import { serveFake } from '@/test/fake-server';
import { historyChange } from './history.fixtures';
import { historyRoute, products } from './history-page.fixtures';

// SQL functions' history for the tests: `starred` (id 9, kept under -9) created then changed, and `gone` (id 12)
// created then deleted. Entries as GET /api/history sends them.

/** sqlFunction is a stored definition; fields override. */
export const sqlFunction = (overrides: Partial<SqlFunction> = {}): SqlFunction => ({
  id: 9,
  accountId: 'user-1',
  name: 'starred',
  description: null,
  params: [{ name: 'min', type: 'number' }],
  returns: { kind: 'rows', table: 'products' },
  body: 'SELECT * FROM products WHERE stars >= :min',
  mode: 'read',
  callRule: 'public',
  createdAt: '2026-03-05T10:00:00.000Z',
  updatedAt: '2026-03-05T10:00:00.000Z',
  ...overrides,
});

export const starred = sqlFunction();
export const starredBefore = sqlFunction({ body: 'SELECT * FROM products' });
export const gone = sqlFunction({ id: 12, name: 'gone', params: [], returns: { kind: 'scalar', type: 'number' } });

const entry = (id: number, fn: SqlFunction, overrides: Partial<HistoryChange>) =>
  historyChange({ id, tableId: -fn.id, tableName: fn.name, recordId: null, revertOf: null, ...overrides });

export const FUNCTION_HISTORY: HistoryChange[] = [
  entry(21, starred, { changeType: 'FUNCTION_CREATE', previousState: null, newState: starredBefore }),
  entry(22, starred, { changeType: 'FUNCTION_UPDATE', previousState: starredBefore, newState: starred }),
  entry(23, gone, { changeType: 'FUNCTION_CREATE', previousState: null, newState: gone }),
  entry(24, gone, { changeType: 'FUNCTION_DELETE', previousState: gone, newState: null }),
];

/** serveFunctions answers with one table, the live function `starred`, and the functions' history. */
export function serveFunctions(routes: Parameters<typeof serveFake>[0] = {}) {
  const byId = historyRoute(FUNCTION_HISTORY);
  return serveFake({
    'GET /rest/v1/tables': () => json(200, [products]),
    'GET /api/functions/sql': () => json(200, [starred]),
    'GET /api/history': (request) => {
      if (request.url.searchParams.get('of') !== 'functions') return byId(request);
      const data = [...FUNCTION_HISTORY].reverse();
      const pagination = { totalItems: data.length, totalPages: 1, currentPage: 1, hasNext: false };
      return json(200, { data, pagination: { ...pagination, hasPrevious: false, nextBefore: null } });
    },
    ...routes,
  });
}

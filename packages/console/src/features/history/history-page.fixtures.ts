import type { Checkpoint, HistoryChange, TableResponse } from '@basalt/shared';
import { type FakeRequest, type FakeRoute, json } from '@/test/fake-backend';
import { serveFake } from '@/test/fake-server';
import { historyChange } from './history.fixtures';

// The Database History page's fake server for its tests: two tables, a day of changes and a checkpoint. The
// suites mock '@/lib/supabase' with '@/test/fake-server' themselves.
export const table = (id: number, name: string): TableResponse => ({
  id,
  name,
  description: null,
  schema: {
    id: { type: 'number', required: true, unique: true },
    title: { type: 'text', required: false, unique: false },
  },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});
export const products = table(4, 'products');
export const orders = table(5, 'orders');

// Times safely inside today and yesterday, whenever the test runs.
export const today = (second: number) => {
  const date = new Date();
  date.setHours(0, 0, second, 0);
  return date.toISOString();
};
export const yesterday = () => {
  const date = new Date();
  date.setDate(date.getDate() - 1);
  date.setHours(12, 0, 0, 0);
  return date.toISOString();
};
export const OLD_DAY = new Date(2026, 0, 15, 9, 30).toISOString();

export const change = (id: number, timestamp: string, overrides: Partial<HistoryChange> = {}): HistoryChange =>
  historyChange({
    id,
    timestamp,
    previousState: { id: 1, title: `Title ${id - 1}` },
    newState: { id: 1, title: `Title ${id}` },
    revertOf: null,
    ...overrides,
  });

export const HISTORY: HistoryChange[] = [
  change(1, OLD_DAY, {
    changeType: 'SCHEMA_CREATE',
    recordId: null,
    previousState: null,
    newState: { name: 'products', description: null, schema: products.schema },
  }),
  change(2, OLD_DAY, { changeType: 'RECORD_CREATE', previousState: null, newState: { id: 1, title: 'Widget' } }),
  change(3, yesterday(), { previousState: { id: 1, title: 'Widget' }, newState: { id: 1, title: 'Gadget' } }),
  change(4, today(1), { previousState: { id: 1, title: 'Gadget' }, newState: { id: 1, title: 'Gizmo' } }),
  change(5, today(2), {
    changeType: 'RECORD_DELETE',
    previousState: { id: 1, title: 'Gizmo' },
    newState: null,
    userId: 'end-user-9',
    appUser: { id: 'end-user-9', name: 'ada@example.com' },
  }),
];

export const checkpoint: Checkpoint = {
  id: 7,
  tableId: 4,
  name: 'Before launch',
  description: 'All prices checked',
  changeId: 3,
  createdBy: 'user-1',
  createdAt: new Date(Date.now() - 3600_000).toISOString(),
};

/** historyRoute pages a list of changes newest first, as GET /api/history does (by `page`, or by `before`). */
export function historyRoute(changes: HistoryChange[]): FakeRoute {
  return ({ url }: FakeRequest) => {
    const before = url.searchParams.get('before');
    const page = before === null ? Number(url.searchParams.get('page') ?? 1) : null;
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const ofTable = changes
      .filter((c) => String(c.tableId) === url.searchParams.get('tableId'))
      .sort((a, b) => b.id - a.id);
    const older = before === null ? ofTable : ofTable.filter((c) => c.id < Number(before));
    const start = page === null ? 0 : (page - 1) * limit;
    const data = older.slice(start, start + limit);
    const hasNext = older.length > start + limit;
    return json(200, {
      data,
      pagination: {
        totalItems: ofTable.length,
        totalPages: Math.max(1, Math.ceil(ofTable.length / limit)),
        currentPage: page,
        hasNext,
        hasPrevious: page === null || page > 1,
        nextBefore: hasNext ? (data.at(-1)?.id ?? null) : null,
      },
    });
  };
}

/** serve answers with the two tables, HISTORY and products' checkpoint unless a test says otherwise. */
export function serve(routes: Record<string, FakeRoute>) {
  return serveFake({
    'GET /rest/v1/tables': () => json(200, [products, orders]),
    'GET /api/history': historyRoute(HISTORY),
    'GET /api/checkpoints': ({ url }) => json(200, url.searchParams.get('tableId') === '4' ? [checkpoint] : []),
    ...routes,
  });
}

export const restored = {
  success: true,
  message: 'Restored',
  tableId: 4,
  changeId: 3,
  reverted: 2,
  undoChangeId: 5,
  table: products,
};

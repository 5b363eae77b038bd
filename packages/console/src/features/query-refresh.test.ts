import type { TableResponse } from '@basalt/shared';
import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { authKeys } from './auth/auth.keys';
import { dashboardKeys } from './dashboard/dashboard.keys';
import { checkpointKeys, historyKeys } from './history/history.keys';
import { keyKeys } from './keys/keys.keys';
import {
  refreshAfterCheckpointCreate,
  refreshAfterKeyWrite,
  refreshAfterProfileUpdate,
  refreshAfterRecordWrite,
  refreshAfterSchemaChange,
  refreshAfterTableCreate,
  refreshAfterTableDelete,
  refreshAfterTimeTravel,
  refreshTable,
} from './query-refresh';
import { recordKeys } from './records/records.keys';
import { tableKeys } from './tables/tables.keys';

// Which cached queries each kind of write makes stale (invalidated) or drops (removed). Every query below is
// cached before the write; a name absent from a row's lists must stay fresh.

const orders: TableResponse = {
  id: 7,
  name: 'orders',
  description: null,
  schema: { id: { type: 'number', required: true, unique: true } },
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
};
const invoices: TableResponse = { ...orders, name: 'invoices' };

const cached = {
  tableList: tableKeys.list,
  docsTableList: tableKeys.apiList,
  ordersDefinition: tableKeys.detail(7),
  otherDefinition: tableKeys.detail(8),
  ordersPage: recordKeys.page(7, 1, 25),
  ordersCount: recordKeys.count('orders'),
  otherRecords: recordKeys.page(8, 1, 25),
  ordersHistory: historyKeys.page(7, null, 10),
  ordersTimeline: historyKeys.timeline(7, 50),
  otherHistory: historyKeys.page(8, null, 10),
  ordersCheckpoints: checkpointKeys.ofTable(7),
  stats: dashboardKeys.stats,
  activity: dashboardKeys.activity(1, 10),
  apiKeys: keyKeys.list,
  me: authKeys.me,
} satisfies Record<string, QueryKey>;
type Cached = keyof typeof cached;

function seeded(): QueryClient {
  const client = new QueryClient();
  for (const key of Object.values(cached)) client.setQueryData(key, key === tableKeys.list ? [orders] : {});
  return client;
}

function outcome(client: QueryClient) {
  const invalidated: Cached[] = [];
  const removed: Cached[] = [];
  for (const [name, key] of Object.entries(cached) as Array<[Cached, QueryKey]>) {
    const state = client.getQueryState(key);
    if (!state) removed.push(name);
    else if (state.isInvalidated) invalidated.push(name);
  }
  return { invalidated, removed };
}

const dashboard: Cached[] = ['stats', 'activity'];

describe('query-refresh', () => {
  it.each<[string, (client: QueryClient) => void, Cached[], Cached[]]>([
    [
      'a record write',
      (c) => refreshAfterRecordWrite(c, orders),
      ['ordersPage', 'ordersCount', 'ordersHistory', 'ordersTimeline', ...dashboard],
      [],
    ],
    ['a table create', (c) => refreshAfterTableCreate(c), ['tableList', 'docsTableList', ...dashboard], []],
    [
      'a table delete',
      (c) => refreshAfterTableDelete(c, orders),
      ['tableList', 'docsTableList', ...dashboard],
      ['ordersDefinition', 'ordersPage', 'ordersCount'],
    ],
    [
      'a schema change that renames the table',
      (c) => refreshAfterSchemaChange(c, orders, invoices),
      // Pages are keyed by the table's id, which a rename keeps; the dashboard's count by its old name goes.
      ['tableList', 'docsTableList', 'ordersPage', 'ordersHistory', 'ordersTimeline', ...dashboard],
      ['ordersCount'],
    ],
    [
      'a revert or restore',
      (c) => refreshAfterTimeTravel(c, 7),
      [
        'tableList',
        'ordersDefinition',
        'ordersPage',
        'ordersCount',
        'otherRecords',
        'ordersHistory',
        'ordersTimeline',
        'ordersCheckpoints',
        ...dashboard,
      ],
      [],
    ],
    ['a new checkpoint', (c) => refreshAfterCheckpointCreate(c, 7), ['ordersCheckpoints'], []],
    ['a key change', (c) => refreshAfterKeyWrite(c), ['apiKeys', ...dashboard], []],
    ['a profile update', (c) => refreshAfterProfileUpdate(c), ['me'], []],
    [
      "a table page's Refresh",
      (c) => refreshTable(c, orders),
      ['ordersDefinition', 'ordersPage', 'ordersHistory', 'ordersTimeline'],
      [],
    ],
  ])('after %s', (_name, write, invalidated, removed) => {
    const client = seeded();
    write(client);
    expect(outcome(client)).toEqual({
      invalidated: Object.keys(cached).filter((name) => invalidated.includes(name as Cached)),
      removed: Object.keys(cached).filter((name) => removed.includes(name as Cached)),
    });
  });

  it('takes a deleted table out of the cached list at once', () => {
    const client = seeded();
    refreshAfterTableDelete(client, orders);
    expect(client.getQueryData(tableKeys.list)).toEqual([]);
  });

  it('keeps the saved definition of a changed table', () => {
    const client = seeded();
    refreshAfterSchemaChange(client, orders, invoices);
    expect(client.getQueryData(tableKeys.detail(7))).toEqual(invoices);
  });
});

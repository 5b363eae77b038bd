import type { ActivityEntry } from '@basalt/shared';
import { describe, expect, it } from 'vitest';
import { describeActivity } from './activity-text';

const entry = (action: string, resource: string, details: ActivityEntry['details'] = null): ActivityEntry => ({
  id: 1,
  action,
  resource,
  details,
  createdAt: '2026-01-01T00:00:00.000Z',
});

describe('describeActivity', () => {
  it.each([
    [entry('CREATE', 'tables', { name: 'orders' }), 'Table created: orders'],
    [entry('DELETE', 'tables', { name: 'orders' }), 'Table deleted: orders'],
    [entry('UPDATE', 'sql_functions', { name: 'sell' }), 'SQL function updated: sell'],
    [entry('REGISTER', 'users', { username: 'ada' }), 'New user registered'],
    [entry('LOGIN', 'auth'), 'User logged in'],
    [entry('LOGOUT', 'auth'), 'User logged out'],
    [entry('CREATE', 'apiKeys', { name: 'ci' }), 'API key created: ci'],
    [entry('CREATE', 'table.orders', { tableName: 'orders' }), 'Record created in orders'],
    [entry('DELETE', 'table.orders', { tableName: 'orders', count: 3 }), '3 records deleted from orders'],
    [entry('UPDATE', 'table.orders'), 'Record updated in orders'],
    [entry('CREATE', 'table.orders', { tableName: 'orders', count: 1000 }), '1,000 records created in orders'],
    [
      entry('CREATE', 'table.todos', { tableName: 'todos', by: { endUserId: 'u1', app: 'abc' } }),
      'Record created in todos by an app user',
    ],
    [
      entry('CREATE', 'table.inbox', { tableName: 'inbox', by: { endUserId: null, app: 'abc' } }),
      'Record created in inbox by an app visitor',
    ],
    [entry('REGISTER', 'app_users', { username: 'ann' }), 'App user signed up: ann'],
    [entry('DELETE', 'app_users', { username: 'ann' }), 'App user deleted: ann'],
  ])('%o reads "%s"', (activity, text) => {
    expect(describeActivity(activity)).toBe(text);
  });
});

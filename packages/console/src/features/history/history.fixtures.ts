import type { HistoryChange } from '@basalt/shared';

// Changes for the history tests, as GET /api/history sends them.

/** historyChange is change 1: an update of record 1 of products (table 4) with no states; fields override. */
export const historyChange = (overrides: Partial<HistoryChange> = {}): HistoryChange => ({
  id: 1,
  changeType: 'RECORD_UPDATE',
  tableName: 'products',
  tableId: 4,
  recordId: 1,
  timestamp: '2026-03-05T10:00:00.000Z',
  previousState: null,
  newState: null,
  ...overrides,
});

import { z } from 'zod';
import { tableAccessViewSchema } from './access.schemas.js';
import { paginationSchema } from './api.types.js';
import { columnDefinitionSchema } from './tables.schemas.js';

// The shapes the console reads back from the tables, records and history APIs. Requests are validated by
// tables.schemas.ts; these describe answers, so they are lenient where the server is strict (a schema is
// any map of column definitions here, its rules were checked when it was written).

/** tableResponseSchema is a table as /api/tables and /rest/v1/tables return it; its schema starts with `id`. */
export const tableResponseSchema = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  schema: z.record(z.string(), columnDefinitionSchema),
  /** The access rules for the app's users (absent from older servers: the default, nobody). */
  access: tableAccessViewSchema.optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
/** TableResponse is one table definition as the APIs show it. */
export type TableResponse = z.infer<typeof tableResponseSchema>;

/** tableListSchema is a list of tables. */
export const tableListSchema = z.array(tableResponseSchema);

/** recordRowSchema is one record: the system columns and the user's columns, whatever their values. */
export const recordRowSchema = z
  .object({
    id: z.number(),
    created_at: z.string().optional(),
    updated_at: z.string().optional(),
  })
  .catchall(z.unknown());
/** RecordRow is one record of a user table. */
export type RecordRow = z.infer<typeof recordRowSchema>;

/** recordListSchema is a page of records. */
export const recordListSchema = z.array(recordRowSchema);

/** historyChangeSchema is one change as GET /api/history lists it. */
export const historyChangeSchema = z.object({
  id: z.number(),
  changeType: z.string(),
  tableName: z.string(),
  tableId: z.number(),
  recordId: z.number().nullable(),
  timestamp: z.string(),
  previousState: z.unknown(),
  newState: z.unknown(),
  userId: z.string().nullable().optional(),
  /** The app's user who made the change through the app (a deleted one is named "a deleted user"); else null. */
  appUser: z.object({ id: z.string(), name: z.string() }).nullable().optional(),
  /** The change this one reverted (a revert or a restore wrote it); null for any other change. */
  revertOf: z.number().nullable().optional(),
});
/** HistoryChange is one entry of a table's history. */
export type HistoryChange = z.infer<typeof historyChangeSchema>;

/**
 * historyPaginationSchema is GET /api/history's pagination: totalItems is exact (a kept count); a page read with
 * `before` has no page number (currentPage null); nextBefore is the `before` of the next page (null on the last).
 */
export const historyPaginationSchema = paginationSchema.extend({
  currentPage: z.number().nullable(),
  nextBefore: z.number().nullable(),
});
export type HistoryPagination = z.infer<typeof historyPaginationSchema>;

/** historyPageSchema is one page of GET /api/history. */
export const historyPageSchema = z.object({
  data: z.array(historyChangeSchema),
  pagination: historyPaginationSchema,
});
/** HistoryPage is one page of changes with its pagination. */
export type HistoryPage = z.infer<typeof historyPageSchema>;

/** tableChangePreviewSchema is POST /api/tables/:id/schema/preview: the steps in words and the refusal, if any. */
export const tableChangePreviewSchema = z.object({
  changes: z.array(z.string()),
  refusal: z.object({ message: z.string(), column: z.string().nullable() }).nullable(),
});
/** TableChangePreview is what a schema change would do. */
export type TableChangePreview = z.infer<typeof tableChangePreviewSchema>;

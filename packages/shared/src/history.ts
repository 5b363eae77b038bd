import { z } from 'zod';
import { tableAccessViewSchema } from './access.schemas.js';
import { historyChangeSchema, tableResponseSchema } from './records.schemas.js';

// Change history, revert, restore and checkpoints (docs/history.md). Requests are validated by the server with these schemas and by the
// console's forms, so both give the same message for the same mistake; the answers' shapes follow.

/** CHECKPOINT_LIMITS are the limits of a checkpoint's name and description. */
const CHECKPOINT_LIMITS = {
  nameMax: 100,
  descriptionMax: 500,
} as const;

/** HISTORY_PAGE_LIMITS are the paging limits of GET /api/history. */
const HISTORY_PAGE_LIMITS = {
  defaultLimit: 20,
  maxLimit: 100,
  // Far beyond any history: it keeps page × limit a safe integer.
  maxPage: 1_000_000_000,
} as const;

const tableIdMessage = 'tableId must be a table id';

const beforeMessage = 'before must be a change id';

/**
 * historyQuerySchema is the query of GET /api/history: tableId (a table's, or a function's negated) or
 * of=functions (optional), limit, and either page (1-based,
 * default 1) or before (the changes older than that change: the `nextBefore` of the page before).
 */
export const historyQuerySchema = z
  .object({
    // A SQL function's entries are kept under the negative of its id (docs/rpc.md): any id but 0.
    tableId: z.coerce
      .number({ error: tableIdMessage })
      .int(tableIdMessage)
      .refine((id) => id !== 0 && Number.isSafeInteger(id), tableIdMessage)
      .optional(),
    // `functions`: only the SQL functions' entries, of every function (deleted ones too).
    of: z.enum(['functions'], { error: 'of must be functions' }).optional(),
    page: z.coerce
      .number({ error: 'page must be a number' })
      .int('page must be a whole number')
      .min(1, 'page must be at least 1')
      .max(HISTORY_PAGE_LIMITS.maxPage, `page cannot exceed ${HISTORY_PAGE_LIMITS.maxPage}`)
      .optional(),
    before: z.coerce
      .number({ error: beforeMessage })
      .int(beforeMessage)
      .positive(beforeMessage)
      .max(Number.MAX_SAFE_INTEGER, beforeMessage)
      .optional(),
    limit: z.coerce
      .number({ error: 'limit must be a number' })
      .int('limit must be a whole number')
      .min(1, 'limit must be at least 1')
      .max(HISTORY_PAGE_LIMITS.maxLimit, `limit cannot exceed ${HISTORY_PAGE_LIMITS.maxLimit}`)
      .default(HISTORY_PAGE_LIMITS.defaultLimit),
  })
  .refine((query) => query.page === undefined || query.before === undefined, {
    message: 'page and before cannot be used together',
    path: ['before'],
  })
  .refine((query) => query.tableId === undefined || query.of === undefined, {
    message: 'tableId and of cannot be used together',
    path: ['of'],
  });

/** checkpointQuerySchema is the query of GET /api/checkpoints: tableId (optional: every table's). */
export const checkpointQuerySchema = z.object({
  tableId: z.coerce.number({ error: tableIdMessage }).int(tableIdMessage).positive(tableIdMessage).optional(),
});

/**
 * createCheckpointSchema is the body of POST /api/checkpoints: the table, a name that is not blank once trimmed
 *, and an optional description (blank means none).
 */
export const createCheckpointSchema = z.object({
  tableId: z
    .number({ error: (issue) => (issue.input === undefined ? 'tableId is required' : tableIdMessage) })
    .int(tableIdMessage)
    .positive(tableIdMessage),
  name: z
    .string({ error: (issue) => (issue.input === undefined ? 'Checkpoint name is required' : 'Name must be text') })
    .trim()
    .min(1, 'Checkpoint name is required')
    .max(CHECKPOINT_LIMITS.nameMax, `Checkpoint name cannot exceed ${CHECKPOINT_LIMITS.nameMax} characters`),
  description: z
    .string({ error: 'Description must be text' })
    .trim()
    .max(CHECKPOINT_LIMITS.descriptionMax, `Description cannot exceed ${CHECKPOINT_LIMITS.descriptionMax} characters`)
    .nullish()
    .transform((text) => (text ? text : null)),
});
/** CreateCheckpointInput is what the console sends to create a checkpoint. */
export type CreateCheckpointInput = z.input<typeof createCheckpointSchema>;

/**
 * checkpointSchema is a checkpoint as the API returns it. changeId is the table's latest change when it was
 * made; null when the table had no change left in history (restoring it then reverts all of them).
 */
export const checkpointSchema = z.object({
  id: z.number(),
  tableId: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  changeId: z.number().nullable(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
});
export type Checkpoint = z.infer<typeof checkpointSchema>;

/** checkpointListSchema is GET /api/checkpoints: newest first. */
export const checkpointListSchema = z.array(checkpointSchema);

/**
 * revertResultSchema is POST /api/history/:id/revert: the change that was undone, the change the revert
 * recorded (revert that one to redo), and the table as it now is (null when it no longer exists).
 */
export const revertResultSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  revertedChangeId: z.number(),
  change: historyChangeSchema,
  table: tableResponseSchema.nullable(),
});
export type RevertResult = z.infer<typeof revertResultSchema>;

/**
 * restoreResultSchema is POST /api/history/:id/restore: how many later changes were reverted, and undoChangeId,
 * the table's latest change before the restore: restoring to it undoes the restore (null when nothing
 * changed). changeId is the version restored to (null: a checkpoint made when the table had no change left).
 */
export const restoreResultSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  tableId: z.number(),
  changeId: z.number().nullable(),
  reverted: z.number(),
  undoChangeId: z.number().nullable(),
  table: tableResponseSchema.nullable(),
});
export type RestoreResult = z.infer<typeof restoreResultSchema>;

/** checkpointRestoreResultSchema is POST /api/checkpoints/:id/restore: a restore, with its checkpoint. */
export const checkpointRestoreResultSchema = restoreResultSchema.extend({ checkpoint: checkpointSchema });
export type CheckpointRestoreResult = z.infer<typeof checkpointRestoreResultSchema>;

/**
 * restoreOptionsSchema is the optional body of a restore (a checkpoint's or a version's): keepAccess keeps the
 * table's access rules as they are today instead of reverting them with the rest.
 */
export const restoreOptionsSchema = z
  .object(
    { keepAccess: z.boolean({ error: 'keepAccess must be true or false' }).optional() },
    { error: 'The restore options must be an object: {keepAccess}' },
  )
  .strict();
export type RestoreOptions = z.infer<typeof restoreOptionsSchema>;

/**
 * restorePreviewSchema is GET /api/checkpoints/:id/restore-preview and /api/history/:id/restore-preview: what
 * a restore would do to the table's access rules. `current` is null when the table does not exist now,
 * `restored` when it would not exist after the restore; `changes` tells whether the restore changes the rules.
 */
export const restorePreviewSchema = z.object({
  tableId: z.number(),
  changeId: z.number().nullable(),
  access: z.object({
    current: tableAccessViewSchema.nullable(),
    restored: tableAccessViewSchema.nullable(),
    changes: z.boolean(),
  }),
});
export type RestorePreview = z.infer<typeof restorePreviewSchema>;

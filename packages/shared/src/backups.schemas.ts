import { z } from 'zod';

// Instance backups (administrators) and an account's own export and import (docs/backups.md).

/** BACKUP_LIMITS are the bounds of what a backup's request may say. */
export const BACKUP_LIMITS = {
  nameMax: 100,
  descriptionMax: 500,
  cronMax: 100,
  keepMin: 1,
  keepMax: 365,
  /** The default schedule: daily at 03:00 (the server's time zone), keeping the last 7 scheduled backups. */
  defaultCron: '0 3 * * *',
  defaultKeep: 7,
} as const;

/** BACKUP_STATUSES are a backup's states (the data model's). */
export const BACKUP_STATUSES = ['IN_PROGRESS', 'COMPLETED', 'FAILED'] as const;
export type BackupStatus = (typeof BACKUP_STATUSES)[number];

const noNul = (text: string) => !text.includes('\u0000');

/** createBackupSchema is the body of POST /api/backups. */
export const createBackupSchema = z
  .object({
    name: z
      .string({ error: 'Name must be text' })
      .trim()
      .min(1, 'Name cannot be empty')
      .max(BACKUP_LIMITS.nameMax, `Name must be at most ${BACKUP_LIMITS.nameMax} characters`)
      .refine(noNul, 'Name cannot contain NUL characters')
      .optional(),
    description: z
      .string({ error: 'Description must be text' })
      .max(BACKUP_LIMITS.descriptionMax, `Description must be at most ${BACKUP_LIMITS.descriptionMax} characters`)
      .refine(noNul, 'Description cannot contain NUL characters')
      .optional(),
    includeFiles: z.boolean({ error: 'includeFiles must be true or false' }).default(false),
  })
  .strict();
export type CreateBackupInput = z.input<typeof createBackupSchema>;

/** backupScheduleInputSchema is the body of PUT /api/backups/schedule (the cron text is checked by the server). */
export const backupScheduleInputSchema = z
  .object({
    enabled: z.boolean({ error: 'enabled must be true or false' }),
    cron: z
      .string({ error: 'Schedule must be a cron expression' })
      .trim()
      .min(1, 'Schedule is required')
      .max(BACKUP_LIMITS.cronMax, `Schedule must be at most ${BACKUP_LIMITS.cronMax} characters`),
    keep: z
      .number({ error: 'Keep must be a number of backups' })
      .int('Keep must be a whole number')
      .min(BACKUP_LIMITS.keepMin, `Keep must be at least ${BACKUP_LIMITS.keepMin}`)
      .max(BACKUP_LIMITS.keepMax, `Keep must be at most ${BACKUP_LIMITS.keepMax}`),
  })
  .strict();
export type BackupScheduleInput = z.input<typeof backupScheduleInputSchema>;

/** backupScheduleSchema is the schedule as GET /api/backups/schedule answers it. */
export const backupScheduleSchema = z.object({
  enabled: z.boolean(),
  cron: z.string(),
  keep: z.number(),
  /** The next scheduled run (ISO), or null when disabled. */
  nextRunAt: z.string().nullable(),
});
export type BackupSchedule = z.infer<typeof backupScheduleSchema>;

/** backupRestoreSchema is the last restore from a backup. */
export const backupRestoreSchema = z.object({
  status: z.enum(BACKUP_STATUSES),
  step: z.string().nullable(),
  error: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});

/** backupSchema is one backup as the API answers it. */
export const backupSchema = z.object({
  id: z.string(),
  projectId: z.string().nullable(),
  name: z.string(),
  description: z.string().nullable(),
  size: z.number().nullable(),
  filePath: z.string().nullable(),
  status: z.enum(BACKUP_STATUSES),
  completedAt: z.string().nullable(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  /** manual, scheduled, pre-restore, uploaded or cli. */
  origin: z.string(),
  includeFiles: z.boolean(),
  engine: z.string().nullable(),
  format: z.string().nullable(),
  migrationLevel: z.string().nullable(),
  durationMs: z.number().nullable(),
  progress: z.object({ rows: z.number(), bytes: z.number() }),
  error: z.string().nullable(),
  restore: backupRestoreSchema.nullable(),
});
export type Backup = z.infer<typeof backupSchema>;

/** backupListSchema is the answer of GET /api/backups. */
export const backupListSchema = z.object({ backups: z.array(backupSchema) });

/** ACCOUNT_EXPORT_LIMITS bound an account's import. */
export const ACCOUNT_EXPORT_LIMITS = {
  /** The most tables one archive may bring. */
  tablesMax: 1000,
} as const;

/** accountImportTableSchema is one table of an import's report. */
export const accountImportTableSchema = z.object({
  name: z.string(),
  /** The name it has (or would have) here: a new one when the account already has a table of that name. */
  importedAs: z.string(),
  renamed: z.boolean(),
  rows: z.number(),
  history: z.number(),
  checkpoints: z.number(),
});

/** accountImportReportSchema is the answer of POST /api/account/import (a dry run changes nothing). */
export const accountImportReportSchema = z.object({
  dryRun: z.boolean(),
  tables: z.array(accountImportTableSchema),
  totals: z.object({ tables: z.number(), rows: z.number(), history: z.number(), checkpoints: z.number() }),
});
export type AccountImportReport = z.infer<typeof accountImportReportSchema>;

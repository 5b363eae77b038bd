import { z } from 'zod';

// Database health, as Settings › Database shows it. What each metric measures is in docs/operations.md.

/** databaseMetricsSchema are the health card's numbers. */
const databaseMetricsSchema = z.object({
  /** Connections in use out of maxConnections, 0 to 1. */
  connectionUtilization: z.number(),
  activeConnections: z.number(),
  maxConnections: z.number(),
  idleConnections: z.number(),
  /** The mean time of the queries timed in the recent window, in milliseconds. */
  avgQueryTime: z.number(),
  /** How many of those took longer than the slow-query threshold. */
  slowQueries: z.number(),
});
/** DatabaseMetrics are the health card's numbers. */
export type DatabaseMetrics = z.infer<typeof databaseMetricsSchema>;

/** databaseHealthSchema is the answer of GET /api/health/database. */
export const databaseHealthSchema = z.object({
  connected: z.boolean(),
  message: z.string(),
  /** The engine and its version ("SQLite 3.50.4", "PostgreSQL 17.2"); null when the database did not answer. */
  version: z.string().nullable(),
  metrics: databaseMetricsSchema,
  /** Engine facts beyond the health metrics: storage sizes, the connection pool (docs/operations.md). */
  details: z.record(z.string(), z.unknown()),
  checkedAt: z.string(),
});
/** DatabaseHealth is a health check's answer. */
export type DatabaseHealth = z.infer<typeof databaseHealthSchema>;

/** databaseCheckRequestSchema is the body of POST /api/health/database/check. */
export const databaseCheckRequestSchema = z.object({
  fullDiagnostic: z.boolean({ error: 'fullDiagnostic must be true or false' }).default(false),
});
/** DatabaseCheckRequest is a parsed check request. */
export type DatabaseCheckRequest = z.infer<typeof databaseCheckRequestSchema>;

/** integrityCheckSchema is one check of a full diagnostic and what it found. */
const integrityCheckSchema = z.object({
  name: z.string(),
  ok: z.boolean(),
  message: z.string(),
  /** What was found wrong, at most a few dozen lines; empty when ok. */
  problems: z.array(z.string()),
});
/** IntegrityCheck is one check of a full diagnostic. */
export type IntegrityCheck = z.infer<typeof integrityCheckSchema>;

/** databaseCheckSchema is the answer of POST /api/health/database/check: the health, and the diagnostic if asked. */
export const databaseCheckSchema = databaseHealthSchema.extend({
  integrity: z
    .object({
      ok: z.boolean(),
      durationMs: z.number(),
      checks: z.array(integrityCheckSchema),
    })
    .nullable(),
});
/** DatabaseCheck is the answer of a check. */
export type DatabaseCheck = z.infer<typeof databaseCheckSchema>;

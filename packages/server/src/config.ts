import path from 'node:path';
import { z } from 'zod';

/** Config is every setting of one Basalt instance, read once at start. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** A postgres:// URL, or null for the embedded SQLite file in dataDir. */
  databaseUrl: string | null;
  siteUrl: string;
  smtpUrl: string | null;
  logLevel: string;
  /** Sign-in, sign-up and recover attempts allowed per 5 minutes per IP and per email. */
  authRateLimit: number;
  /** Public record API requests allowed per minute per API key (or signed-in account). */
  apiRateLimit: number;
  /** Origins allowed by CORS; ['*'] allows any. */
  corsOrigins: string[];
  /** Folder of the built console; null serves no console (API only). */
  consoleDir: string | null;
  /** Largest request body accepted, in bytes. */
  bodyLimit: number;
  /** Days of change history kept (older changes no checkpoint needs are pruned); 0 keeps them for ever. */
  historyRetentionDays: number;
  /** Days the system log keeps its entries (features/logs/log-retention.ts). */
  logRetentionDays: number;
  /** The most system log entries kept; the oldest beyond it are deleted. */
  logRetentionMaxRows: number;
  /** How successful requests reach the system log: one entry each ('all') or per-route summaries ('summary'). */
  logRequests: 'all' | 'summary';
}

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  HOST: z.string().min(1).default('127.0.0.1'),
  BASALT_DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SITE_URL: z
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'SMTP_URL must be an smtp:// or smtps:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  AUTH_RATE_LIMIT: z.coerce.number().int().min(1).default(30),
  API_RATE_LIMIT: z.coerce.number().int().min(1).default(300_000),
  CORS_ORIGINS: z.string().default('*'),
  BASALT_CONSOLE_DIR: z.string().optional(),
  BODY_LIMIT: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  HISTORY_RETENTION_DAYS: z.coerce
    .number({ error: 'HISTORY_RETENTION_DAYS must be a number of days (0 keeps history for ever)' })
    .int('HISTORY_RETENTION_DAYS must be a whole number of days')
    .min(0, 'HISTORY_RETENTION_DAYS cannot be negative (0 keeps history for ever)')
    .default(90),
  LOG_RETENTION_DAYS: z.coerce
    .number({ error: 'LOG_RETENTION_DAYS must be a number of days' })
    .int('LOG_RETENTION_DAYS must be a whole number of days')
    .min(1, 'LOG_RETENTION_DAYS must be at least 1')
    .default(14),
  LOG_RETENTION_MAX_ROWS: z.coerce
    .number({ error: 'LOG_RETENTION_MAX_ROWS must be a number of entries' })
    .int('LOG_RETENTION_MAX_ROWS must be a whole number')
    .min(1000, 'LOG_RETENTION_MAX_ROWS must be at least 1000')
    .default(1_000_000),
  LOG_REQUESTS: z.enum(['summary', 'all'], { error: "LOG_REQUESTS must be 'summary' or 'all'" }).default('summary'),
});

/** loadConfig reads the environment (DESIGN.md "Configuration") into a Config; overrides win. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const port = overrides.port ?? e.PORT;
  return {
    port,
    host: e.HOST,
    dataDir: path.resolve(e.BASALT_DATA_DIR),
    databaseUrl: e.DATABASE_URL ?? null,
    siteUrl: (e.SITE_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    smtpUrl: e.SMTP_URL ?? null,
    logLevel: e.LOG_LEVEL,
    authRateLimit: e.AUTH_RATE_LIMIT,
    apiRateLimit: e.API_RATE_LIMIT,
    corsOrigins: e.CORS_ORIGINS.split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    consoleDir: e.BASALT_CONSOLE_DIR ? path.resolve(e.BASALT_CONSOLE_DIR) : null,
    bodyLimit: e.BODY_LIMIT,
    historyRetentionDays: e.HISTORY_RETENTION_DAYS,
    logRetentionDays: e.LOG_RETENTION_DAYS,
    logRetentionMaxRows: e.LOG_RETENTION_MAX_ROWS,
    logRequests: e.LOG_REQUESTS,
    ...overrides,
  };
}

import path from 'node:path';
import { z } from 'zod';
import { type BillingConfig, plansOf, stripeOf } from './config-billing.js';
import { type DatabaseSettings, databaseEnv, databaseSettingsOf } from './config-database.js';
import { type ConsoleOAuthProvider, oauthProvidersOf } from './config-oauth.js';

/** Config is every setting of one Basalt instance, read once at start. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** A postgres:// URL, or null for the embedded SQLite file in dataDir. */
  databaseUrl: string | null;
  /** database: the PostgreSQL connection's settings: a pooler in front, the pool's size, the statement timeout. */
  database: DatabaseSettings;
  siteUrl: string;
  /**
   * SITE_URL was set: it names the issuer of this node's tokens. Unset, the nodes of one database issue them as the
   * URL the instance first started with (features/auth/sessions/token-issuer.ts), so they accept each other's.
   */
  siteUrlConfigured: boolean;
  smtpUrl: string | null;
  /** SMTP_FROM: the From of every mail; null: `Basalt <no-reply@<SITE_URL's host>>`. */
  smtpFrom: string | null;
  logLevel: string;
  /**
   * Per 5 minutes: wrong passwords allowed per IP over all emails, and sign-up, recover and verify attempts per IP
   * and per email (features/auth/protocol/auth-rate-limits.ts).
   */
  authRateLimit: number;
  /** Public record API requests allowed per minute per API key (or signed-in account). */
  apiRateLimit: number;
  /** Origins allowed by CORS; ['*'] allows any. */
  corsOrigins: string[];
  /** Folder of the built console; null serves no console (API only). */
  consoleDir: string | null;
  /** Largest request body accepted, in bytes. */
  bodyLimit: number;
  /** Seconds a client has to send a whole request (headers and body); a slower one gets 408 and is cut off. */
  requestTimeoutSeconds: number;
  /**
   * Which proxies' X-Forwarded-For to believe for the client's address (rate limits per IP, logs): false (none),
   * true (any), or addresses and CIDR ranges.
   */
  trustProxy: boolean | string[];
  /** Days of change history kept (older changes no checkpoint needs are pruned); 0 keeps them for ever. */
  historyRetentionDays: number;
  /** Days the system log keeps its entries (features/logs/log-retention.ts). */
  logRetentionDays: number;
  /** The most system log entries kept; the oldest beyond it are deleted. */
  logRetentionMaxRows: number;
  /** How successful requests reach the system log: one entry each ('all') or per-route summaries ('summary'). */
  logRequests: 'all' | 'summary';
  /** REQUEST_METRICS: off stops the request metrics and the index insights' read shapes (features/monitoring). */
  requestMetrics: boolean;
  /** METRICS_TOKEN: the bearer token of the Prometheus endpoint GET /metrics; null: the endpoint is off. */
  metricsToken: string | null;
  /** FAST_READS: off answers every request through Fastify, none early (http/routes/early-runner.ts). */
  fastReads: boolean;
  /** Edge functions' runtime limits and pool (features/functions/runtime, docs/functions.md). */
  functions: FunctionsConfig;
  /** BASALT_MASTER_KEY: the key that wraps each account's secrets key; null: data/master.key, made once. */
  masterKey: string | null;
  /** BASALT_PREVIOUS_MASTER_KEY: the key being rotated away from; data keys it wrapped are re-wrapped at start. */
  previousMasterKey: string | null;
  /** "Sign in with …" providers of the console accounts (AUTH_GITHUB_*, AUTH_GOOGLE_*, AUTH_GITLAB_*, AUTH_OIDC_*). */
  oauthProviders: ConsoleOAuthProvider[];
  /** Plans, metering and Stripe (features/billing, docs/billing.md). */
  billing: BillingConfig;
  /** Instance backups (features/backups, docs/backups.md). */
  backups: BackupsConfig;
  /** REDIS_URL: the event bus between nodes goes through Redis pub/sub instead of PostgreSQL's NOTIFY; null: not. */
  redisUrl: string | null;
  /** Realtime's limits (features/realtime, docs/realtime.md). */
  realtime: RealtimeConfig;
  /** File storage's backend and limits (features/storage, docs/storage.md). */
  storage: StorageConfig;
}

/** StorageConfig says where stored files' bytes live (STORAGE_*): the data dir, or an S3-compatible service. */
export interface StorageConfig {
  /** STORAGE_MAX_FILE_SIZE: the largest object any bucket accepts, in bytes. */
  maxFileSize: number;
  /** STORAGE_S3_*: an S3-compatible service, or null for `<data>/storage`. */
  s3: {
    endpoint: string | null;
    region: string;
    bucket: string;
    accessKeyId: string;
    secretAccessKey: string;
    forcePathStyle: boolean;
  } | null;
}

/** BackupsConfig says where archives live and how the database is written into them. */
export interface BackupsConfig {
  /** BACKUP_DIR: the folder of the archives; null: `<data>/backups`. Several nodes should share one. */
  dir: string | null;
  /**
   * BACKUP_FORMAT: auto writes the engine's own copy (SQLite's file, or pg_dump's custom format when a matching
   * pg_dump is installed); logical writes Basalt's rows, which restore onto either engine.
   */
  format: 'auto' | 'logical';
  /** BACKUP_UPLOAD_MAX_BYTES: the largest archive an upload (or an account import) may send. */
  uploadMaxBytes: number;
  /** BACKUP_SCHEDULER: off starts no scheduled backups on this node (the schedule is kept). */
  scheduler: boolean;
  /** BACKUP_PACE: the share of the time (0.05–1) a backup reads the database; it rests the rest (db/backup/pace). */
  pace: number;
}

/** RealtimeConfig is realtime's limits, per account on each node (REALTIME_*). */
export interface RealtimeConfig {
  /** Sockets that have joined a channel of one account, at once. */
  maxSockets: number;
  /** Channels one socket may have joined at once. */
  maxChannels: number;
  /** Broadcasts, presence and other channel messages an account's clients may send per second. */
  maxMessagesPerSecond: number;
  /** The largest broadcast or presence message, in bytes. */
  maxPayloadBytes: number;
}

/** FunctionsConfig holds the limits Basalt enforces on every edge function, the same for every account. */
export interface FunctionsConfig {
  /** V8 heap of one function's process, and what its resident memory may grow by, in MB. */
  memoryMb: number;
  /** CPU time one request may use, in ms (time waiting on I/O does not count). */
  cpuMs: number;
  /** Wall-clock time one request may take before it is answered 504, in ms. */
  wallClockMs: number;
  /** Largest request body a function is given, in bytes. */
  requestBytes: number;
  /** Largest response body a function may answer, in bytes. */
  responseBytes: number;
  /** A function's process stops after this long without a request, in ms. */
  idleMs: number;
  /** Processes running at once on this server; the least recently used idle one stops to make room. */
  maxProcesses: number;
  /** Calls one function's process serves at once; more are refused (a function calling itself cannot swamp the server). */
  maxConcurrentCalls: number;
  /** The Deno executable; null: the one the `deno` npm package installed. */
  denoPath: string | null;
}

function wholeNumber(name: string, min: number, fallback: number) {
  const message = `${name} must be a whole number of at least ${min}`;
  return z.coerce.number({ error: message }).int(message).min(min, message).default(fallback);
}

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  HOST: z.string().min(1).default('127.0.0.1'),
  BASALT_DATA_DIR: z.string().min(1).default('./data'),
  ...databaseEnv,
  SITE_URL: z
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'SMTP_URL must be an smtp:// or smtps:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  // An address, optionally with a display name ("Acme <auth@acme.example>"); never a line break (header injection).
  SMTP_FROM: z
    .string()
    .trim()
    .max(320, 'SMTP_FROM is too long')
    .regex(
      /^(?:[^\r\n<>]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/,
      'SMTP_FROM must be an address, e.g. auth@example.com or "Acme <auth@example.com>"',
    )
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
  REQUEST_TIMEOUT_SECONDS: z.coerce
    .number({ error: 'REQUEST_TIMEOUT_SECONDS must be a number of seconds' })
    .int('REQUEST_TIMEOUT_SECONDS must be a whole number of seconds')
    .min(1, 'REQUEST_TIMEOUT_SECONDS must be at least 1')
    .default(60),
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((text, context) => {
      const value = text.trim();
      if (value === 'false' || value === '') return false;
      if (value === 'true') return true;
      const addresses = value
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean);
      if (addresses.every((a) => /^[0-9a-fA-F.:/]+$/.test(a))) return addresses;
      context.addIssue({
        code: 'custom',
        message: 'TRUST_PROXY must be true, false, or addresses and CIDR ranges separated by commas',
      });
      return z.NEVER;
    }),
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
  FAST_READS: z.enum(['on', 'off'], { error: "FAST_READS must be 'on' or 'off'" }).default('on'),
  REQUEST_METRICS: z.enum(['on', 'off'], { error: "REQUEST_METRICS must be 'on' or 'off'" }).default('on'),
  // Empty: unset, as in an env file that lists every variable.
  METRICS_TOKEN: z
    .union([
      z.literal(''),
      z
        .string()
        .trim()
        .min(16, 'METRICS_TOKEN must be at least 16 characters')
        .max(512, 'METRICS_TOKEN must be at most 512 characters'),
    ])
    .optional(),
  FUNCTIONS_MEMORY_MB: wholeNumber('FUNCTIONS_MEMORY_MB', 16, 150),
  FUNCTIONS_CPU_MS: wholeNumber('FUNCTIONS_CPU_MS', 10, 2000),
  FUNCTIONS_WALL_CLOCK_MS: wholeNumber('FUNCTIONS_WALL_CLOCK_MS', 100, 150_000),
  FUNCTIONS_REQUEST_BYTES: wholeNumber('FUNCTIONS_REQUEST_BYTES', 1024, 10 * 1024 * 1024),
  FUNCTIONS_RESPONSE_BYTES: wholeNumber('FUNCTIONS_RESPONSE_BYTES', 1024, 10 * 1024 * 1024),
  FUNCTIONS_IDLE_MS: wholeNumber('FUNCTIONS_IDLE_MS', 1000, 5 * 60_000),
  FUNCTIONS_MAX_PROCESSES: wholeNumber('FUNCTIONS_MAX_PROCESSES', 1, 32),
  FUNCTIONS_MAX_CONCURRENT_CALLS: wholeNumber('FUNCTIONS_MAX_CONCURRENT_CALLS', 1, 500),
  FUNCTIONS_DENO_PATH: z.string().optional(),
  BASALT_MASTER_KEY: z.string().optional(),
  BASALT_PREVIOUS_MASTER_KEY: z.string().optional(),
  METERING: z.enum(['on', 'off'], { error: "METERING must be 'on' or 'off'" }).default('on'),
  METERING_REFRESH_MS: wholeNumber('METERING_REFRESH_MS', 100, 5000),
  QUOTAS: z.enum(['auto', 'enforce', 'off'], { error: "QUOTAS must be 'auto', 'enforce' or 'off'" }).default('auto'),
  BILLING_PLANS: z.string().optional(),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_CHECKOUT_MODE: z
    .enum(['hosted', 'embedded'], { error: "STRIPE_CHECKOUT_MODE must be 'hosted' or 'embedded'" })
    .default('hosted'),
  STRIPE_PRICE_STARTER: z.string().optional(),
  STRIPE_PRICE_PROFESSIONAL: z.string().optional(),
  STRIPE_PRICE_ENTERPRISE: z.string().optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'REDIS_URL must be a redis:// or rediss:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  REALTIME_MAX_SOCKETS: wholeNumber('REALTIME_MAX_SOCKETS', 1, 10_000),
  REALTIME_MAX_CHANNELS: wholeNumber('REALTIME_MAX_CHANNELS', 1, 100),
  REALTIME_MAX_MESSAGES_PER_SECOND: wholeNumber('REALTIME_MAX_MESSAGES_PER_SECOND', 1, 1000),
  REALTIME_MAX_PAYLOAD_BYTES: wholeNumber('REALTIME_MAX_PAYLOAD_BYTES', 1024, 256 * 1024).refine(
    (bytes) => bytes <= 1_500_000,
    'REALTIME_MAX_PAYLOAD_BYTES must be at most 1500000 (a socket frame is at most 2 MiB)',
  ),
  STRIPE_API_URL: z
    .url('STRIPE_API_URL must be a URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  BACKUP_DIR: z.string().optional(),
  BACKUP_FORMAT: z.enum(['auto', 'logical'], { error: "BACKUP_FORMAT must be 'auto' or 'logical'" }).default('auto'),
  BACKUP_UPLOAD_MAX_BYTES: wholeNumber('BACKUP_UPLOAD_MAX_BYTES', 1024, 64 * 1024 * 1024 * 1024),
  BACKUP_SCHEDULER: z.enum(['on', 'off'], { error: "BACKUP_SCHEDULER must be 'on' or 'off'" }).default('on'),
  BACKUP_PACE: z.coerce
    .number({ error: 'BACKUP_PACE must be a number from 0.05 to 1' })
    .min(0.05, 'BACKUP_PACE must be a number from 0.05 to 1')
    .max(1, 'BACKUP_PACE must be a number from 0.05 to 1')
    .default(0.25),
  STORAGE_MAX_FILE_SIZE: wholeNumber('STORAGE_MAX_FILE_SIZE', 1, 50 * 1024 * 1024),
  STORAGE_S3_BUCKET: z.string().optional(),
  STORAGE_S3_ENDPOINT: z.string().optional(),
  STORAGE_S3_REGION: z.string().default('us-east-1'),
  STORAGE_S3_ACCESS_KEY_ID: z.string().default(''),
  STORAGE_S3_SECRET_ACCESS_KEY: z.string().default(''),
  STORAGE_S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('true'),
});

/** loadConfig reads the environment (DESIGN.md "Configuration") into a Config; overrides win. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const database = databaseSettingsOf(e);
  if (typeof database === 'string') throw new Error(`Invalid configuration: ${database}`);
  const port = overrides.port ?? e.PORT;
  return {
    port,
    host: e.HOST,
    dataDir: path.resolve(e.BASALT_DATA_DIR),
    databaseUrl: e.DATABASE_URL ?? null,
    database,
    siteUrl: (e.SITE_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    siteUrlConfigured: e.SITE_URL !== undefined,
    smtpUrl: e.SMTP_URL ?? null,
    smtpFrom: e.SMTP_FROM ?? null,
    logLevel: e.LOG_LEVEL,
    authRateLimit: e.AUTH_RATE_LIMIT,
    apiRateLimit: e.API_RATE_LIMIT,
    corsOrigins: e.CORS_ORIGINS.split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    consoleDir: e.BASALT_CONSOLE_DIR ? path.resolve(e.BASALT_CONSOLE_DIR) : null,
    bodyLimit: e.BODY_LIMIT,
    requestTimeoutSeconds: e.REQUEST_TIMEOUT_SECONDS,
    trustProxy: e.TRUST_PROXY,
    historyRetentionDays: e.HISTORY_RETENTION_DAYS,
    logRetentionDays: e.LOG_RETENTION_DAYS,
    logRetentionMaxRows: e.LOG_RETENTION_MAX_ROWS,
    logRequests: e.LOG_REQUESTS,
    fastReads: e.FAST_READS === 'on',
    requestMetrics: e.REQUEST_METRICS === 'on',
    metricsToken: e.METRICS_TOKEN || null,
    functions: {
      memoryMb: e.FUNCTIONS_MEMORY_MB,
      cpuMs: e.FUNCTIONS_CPU_MS,
      wallClockMs: e.FUNCTIONS_WALL_CLOCK_MS,
      requestBytes: e.FUNCTIONS_REQUEST_BYTES,
      responseBytes: e.FUNCTIONS_RESPONSE_BYTES,
      idleMs: e.FUNCTIONS_IDLE_MS,
      maxProcesses: e.FUNCTIONS_MAX_PROCESSES,
      maxConcurrentCalls: e.FUNCTIONS_MAX_CONCURRENT_CALLS,
      denoPath: e.FUNCTIONS_DENO_PATH || null,
    },
    masterKey: e.BASALT_MASTER_KEY || null,
    previousMasterKey: e.BASALT_PREVIOUS_MASTER_KEY || null,
    oauthProviders: oauthProvidersOf(env),
    billing: {
      metering: e.METERING === 'on',
      meteringRefreshMs: e.METERING_REFRESH_MS,
      quotas: e.QUOTAS,
      plans: plansOf(e.BILLING_PLANS),
      stripe: stripeOf(e),
    },
    backups: {
      dir: e.BACKUP_DIR ? path.resolve(e.BACKUP_DIR) : null,
      format: e.BACKUP_FORMAT,
      uploadMaxBytes: e.BACKUP_UPLOAD_MAX_BYTES,
      scheduler: e.BACKUP_SCHEDULER === 'on',
      pace: e.BACKUP_PACE,
    },
    redisUrl: e.REDIS_URL ?? null,
    realtime: {
      maxSockets: e.REALTIME_MAX_SOCKETS,
      maxChannels: e.REALTIME_MAX_CHANNELS,
      maxMessagesPerSecond: e.REALTIME_MAX_MESSAGES_PER_SECOND,
      maxPayloadBytes: e.REALTIME_MAX_PAYLOAD_BYTES,
    },
    storage: {
      maxFileSize: e.STORAGE_MAX_FILE_SIZE,
      s3: e.STORAGE_S3_BUCKET
        ? {
            endpoint: e.STORAGE_S3_ENDPOINT || null,
            region: e.STORAGE_S3_REGION,
            bucket: e.STORAGE_S3_BUCKET,
            accessKeyId: e.STORAGE_S3_ACCESS_KEY_ID,
            secretAccessKey: e.STORAGE_S3_SECRET_ACCESS_KEY,
            forcePathStyle: e.STORAGE_S3_FORCE_PATH_STYLE === 'true',
          }
        : null,
    },
    ...overrides,
  };
}

/** backupDirOf is the folder of the instance's backup archives. */
export function backupDirOf(config: Pick<Config, 'dataDir' | 'backups'>): string {
  return config.backups.dir ?? path.join(config.dataDir, 'backups');
}

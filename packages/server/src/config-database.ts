import { z } from 'zod';

// The database's part of the configuration: which PostgreSQL, through what, with how many connections and how long
// one statement may run. Read with the rest of the environment (config.ts).

/** PoolMode says what stands between Basalt and PostgreSQL: nothing (or a session pooler), or a transaction pooler. */
export type PoolMode = 'session' | 'transaction';

/** DatabaseSettings are the PostgreSQL connection's settings (SQLite reads none of them). */
export interface DatabaseSettings {
  /**
   * DATABASE_DIRECT_URL: PostgreSQL itself, when DATABASE_URL names a pooler. The bus's LISTEN connection, backups
   * and restores need a session of their own, which a transaction pooler does not keep; null: DATABASE_URL.
   */
  directUrl: string | null;
  /**
   * DATABASE_POOL_MODE: `transaction` when DATABASE_URL is a transaction pooler (PgBouncer's pool_mode=transaction):
   * no statement is prepared by name (another client's transaction may get the connection next) and no setting is
   * sent at connection start (the pooler refuses it); the session defaults are set on the role instead.
   */
  poolMode: PoolMode;
  /** DATABASE_POOL_SIZE: connections each server process keeps to DATABASE_URL. */
  poolSize: number;
  /** DATABASE_STATEMENT_TIMEOUT_MS: how long one statement may run before PostgreSQL cancels it. */
  statementTimeoutMs: number;
  /**
   * DATABASE_SYNCHRONOUS_COMMIT: `on` (PostgreSQL's default) answers a write once its commit is on disk; `off` once
   * it is in PostgreSQL's memory, on disk a moment later: a crash of the database server (not of Basalt) may lose
   * the last writes' fraction of a second, never corrupt anything — what SQLite's WAL mode with synchronous=NORMAL,
   * Basalt's setting there, gives.
   */
  synchronousCommit: boolean;
}

const postgresUrl = (name: string) =>
  z
    .string()
    .regex(/^postgres(ql)?:\/\//, `${name} must be a postgres:// URL`)
    .optional()
    .or(z.literal('').transform(() => undefined));

const wholeNumber = (name: string, min: number, max: number, fallback: number) => {
  const message = `${name} must be a whole number from ${min} to ${max}`;
  return z.coerce.number({ error: message }).int(message).min(min, message).max(max, message).default(fallback);
};

/** databaseEnv is the environment's database variables, as config.ts's schema reads them. */
export const databaseEnv = {
  DATABASE_URL: postgresUrl('DATABASE_URL'),
  DATABASE_DIRECT_URL: postgresUrl('DATABASE_DIRECT_URL'),
  DATABASE_POOL_MODE: z
    .enum(['session', 'transaction'], { error: "DATABASE_POOL_MODE must be 'session' or 'transaction'" })
    .default('session'),
  DATABASE_POOL_SIZE: wholeNumber('DATABASE_POOL_SIZE', 1, 1000, 10),
  DATABASE_STATEMENT_TIMEOUT_MS: wholeNumber('DATABASE_STATEMENT_TIMEOUT_MS', 100, 86_400_000, 30_000),
  DATABASE_SYNCHRONOUS_COMMIT: z
    .enum(['on', 'off'], { error: "DATABASE_SYNCHRONOUS_COMMIT must be 'on' or 'off'" })
    .default('on'),
};

type DatabaseEnv = z.output<z.ZodObject<typeof databaseEnv>>;

/** databaseSettingsOf checks the variables together and returns the settings, or the sentence that says what is wrong. */
export function databaseSettingsOf(e: DatabaseEnv): DatabaseSettings | string {
  if (e.DATABASE_POOL_MODE === 'transaction' && !e.DATABASE_URL) {
    return 'DATABASE_POOL_MODE=transaction is for a PostgreSQL pooler: set DATABASE_URL to the pooler';
  }
  if (e.DATABASE_POOL_MODE === 'transaction' && !e.DATABASE_DIRECT_URL) {
    return (
      'DATABASE_POOL_MODE=transaction needs DATABASE_DIRECT_URL, PostgreSQL itself: a transaction pooler does not ' +
      "keep the session that the event bus listens on, so the nodes would not hear each other's changes"
    );
  }
  return {
    directUrl: e.DATABASE_DIRECT_URL ?? null,
    poolMode: e.DATABASE_POOL_MODE,
    poolSize: e.DATABASE_POOL_SIZE,
    statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
    synchronousCommit: e.DATABASE_SYNCHRONOUS_COMMIT === 'on',
  };
}

import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

// The database's settings as an operator writes them: defaults, a transaction pooler with and without the direct
// URL it needs, and values that cannot be right, each refused at start with a sentence that says what to do.

const PG = 'postgres://basalt@db.internal:5432/basalt';
const POOLER = 'postgres://basalt@pooler.internal:6432/basalt';

describe('database settings', () => {
  it('defaults to ten connections, a 30 s statement timeout and no pooler', () => {
    expect(loadConfig({ DATABASE_URL: PG }).database).toEqual({
      directUrl: null,
      poolMode: 'session',
      poolSize: 10,
      statementTimeoutMs: 30_000,
      synchronousCommit: true,
    });
  });

  it('takes a transaction pooler with the direct URL, the pool size and the timeout', () => {
    const config = loadConfig({
      DATABASE_URL: POOLER,
      DATABASE_DIRECT_URL: PG,
      DATABASE_POOL_MODE: 'transaction',
      DATABASE_POOL_SIZE: '40',
      DATABASE_STATEMENT_TIMEOUT_MS: '5000',
      DATABASE_SYNCHRONOUS_COMMIT: 'off',
    });
    expect(config.database).toEqual({
      directUrl: PG,
      poolMode: 'transaction',
      poolSize: 40,
      statementTimeoutMs: 5000,
      synchronousCommit: false,
    });
    expect(config.databaseUrl).toBe(POOLER);
  });

  it.each([
    [
      { DATABASE_URL: POOLER, DATABASE_POOL_MODE: 'transaction' },
      'DATABASE_POOL_MODE=transaction needs DATABASE_DIRECT_URL',
    ],
    [{ DATABASE_POOL_MODE: 'transaction' }, 'set DATABASE_URL to the pooler'],
    [{ DATABASE_URL: PG, DATABASE_POOL_MODE: 'statement' }, "DATABASE_POOL_MODE must be 'session' or 'transaction'"],
    [{ DATABASE_URL: PG, DATABASE_DIRECT_URL: 'mysql://x' }, 'DATABASE_DIRECT_URL must be a postgres:// URL'],
    [{ DATABASE_URL: PG, DATABASE_POOL_SIZE: '0' }, 'DATABASE_POOL_SIZE must be a whole number from 1 to 1000'],
    [{ DATABASE_URL: PG, DATABASE_POOL_SIZE: 'ten' }, 'DATABASE_POOL_SIZE must be a whole number from 1 to 1000'],
    [
      { DATABASE_URL: PG, DATABASE_STATEMENT_TIMEOUT_MS: '1.5' },
      'DATABASE_STATEMENT_TIMEOUT_MS must be a whole number',
    ],
    [{ DATABASE_URL: PG, DATABASE_SYNCHRONOUS_COMMIT: 'maybe' }, "DATABASE_SYNCHRONOUS_COMMIT must be 'on' or 'off'"],
  ])('refuses %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});

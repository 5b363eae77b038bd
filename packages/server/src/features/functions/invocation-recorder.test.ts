import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, migrateToLatest, openDatabase } from '../../db/database.js';
import type { LogInput, LogWriter } from '../logs/log-writer.js';
import { createInvocationRecorder, type InvocationFacts } from './invocation-recorder.js';
import { sumAccountUsage } from './invocations.store.js';

// The recorder counts every invocation, logs failures one by one, and logs successes one by one only up to 20
// per function every 10 s (the others in one summary entry), unless told to log every one.

function fakeLogs(): LogWriter & { entries: LogInput[] } {
  const entries: LogInput[] = [];
  return {
    entries,
    write: (entry) => entries.push(entry),
    countRequest() {},
    flush: async () => {},
    close: async () => {},
    stats: () => ({ queued: 0, written: entries.length, dropped: 0 }),
  };
}

const facts = (status: number, error: string | null = null): InvocationFacts => ({
  accountId: 'acct',
  functionId: 7,
  name: 'hello',
  version: 1,
  route: '/api/edge/hello',
  method: 'GET',
  status,
  durationMs: 2,
  error,
  logs: [{ level: 'info', message: 'hi' }],
  cost: Promise.resolve({ cpuMs: 3, memoryMb: 40 }),
});

describe('invocation recorder', () => {
  let dataDir: string;
  let db: Db;
  beforeEach(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-recorder-'));
    db = openDatabase({ databaseUrl: null, dataDir });
    await migrateToLatest(db);
  });
  afterEach(async () => {
    await db.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('counts every invocation, logs failures and the first 20 successes, and summarises the rest', async () => {
    const logs = fakeLogs();
    const recorder = createInvocationRecorder(db, logs);
    for (let i = 0; i < 30; i++) recorder.record(facts(200));
    recorder.record(facts(546, 'WORKER_RESOURCE_LIMIT'));
    recorder.record(facts(404));
    await recorder.close();
    const rows = await db.kysely.selectFrom('function_invocations').selectAll().execute();
    expect(rows).toHaveLength(22);
    expect(rows.filter((r) => r.error === 'WORKER_RESOURCE_LIMIT')).toHaveLength(1);
    expect(logs.entries.filter((e) => e.source === 'functions')).toHaveLength(23);
    expect(logs.entries.at(-1)).toMatchObject({
      message: 'hello: 10 more successful invocations in 10 s',
      context: { summarised: 10 },
    });
    expect(logs.entries.find((e) => e.context?.error)).toMatchObject({ level: 'error' });
    const since = '2000-01-01T00:00:00.000Z';
    expect(await sumAccountUsage(db.kysely, 'acct', since, '2100-01-01T00:00:00.000Z')).toEqual({
      invocations: 32,
      errors: 1,
      cpuMs: 96,
      durationMs: 64,
    });
  });

  it('logs every invocation when asked (LOG_REQUESTS=all)', async () => {
    const logs = fakeLogs();
    const recorder = createInvocationRecorder(db, logs, { everyInvocation: true });
    for (let i = 0; i < 30; i++) recorder.record(facts(200));
    await recorder.close();
    expect(await db.kysely.selectFrom('function_invocations').selectAll().execute()).toHaveLength(30);
    expect(logs.entries).toHaveLength(30);
  });
});

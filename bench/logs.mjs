// `npm run bench:logs`: the system log's search at 1,000,000 entries, on SQLite (docs/operations.md "What a query
// costs"). One run fills two databases with the same generated entries through the log writer, in batches of
// 500 as the server stores them: one with the search index (migration 0006), one without it, the writer as it
// was before. It reports what the index costs the writer per entry. Then it times GET /api/logs's paged query (the
// service behind the route: the count and the page) with and without a search term, through the index and as the
// plain scan it replaced (the same count and page without the index's candidates), in the same run, and prints
// the ratios; and what the retention job's deletes and migration 0006 on an existing log cost. Absolute times
// swing on a shared machine; the ratios, measured side by side, are the result.
// Usage: node bench/logs.mjs [--rows 1000000] [--repeat 5]
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { register } from 'tsx/esm/api';

const { values } = parseArgs({
  options: { rows: { type: 'string', default: '1000000' }, repeat: { type: 'string', default: '5' } },
});
const ROWS = Number(values.rows);
const REPEAT = Number(values.repeat);
const BATCH = 500;
const BASE = Date.parse('2030-01-01T00:00:00.000Z');

// The server's modules, in TypeScript (tsx's loader keeps the process alive until unregistered).
const unregister = register();
const src = (file) => new URL(`../packages/server/src/${file}`, import.meta.url).href;
const { migrateToLatest, openDatabase } = await import(src('db/database.ts'));
const { createLogWriter } = await import(src('features/logs/log-writer.ts'));
const { countLogRows, deleteOldLogs, findLogPosition, listLogRows } = await import(src('features/logs/logs.store.ts'));
const { LOG_RETENTION_CHUNK } = await import(src('features/logs/log-retention.ts'));
const { listLogsPage, listRecentLogs, logQueryFor, readLogPage } = await import(src('features/logs/logs.service.ts'));
const { requestEntry } = await import(src('features/logs/log-events.ts'));

// Entries like the server's (features/logs/log-events.ts): requests of 10 accounts with a request id, sign-ins
// and refused sign-ins, and a retention job now and then; deterministic, so two runs search the same log.
const METHODS = ['GET', 'GET', 'GET', 'POST', 'PATCH', 'DELETE'];
const PATHS = [
  () => '/api/tables',
  (n) => `/api/tables/${n % 500}`,
  () => '/rest/v1/orders',
  (n) => `/rest/v1/t_${n % 97}`,
  () => '/api/logs',
  () => '/auth/v1/token',
  (n) => `/api/keys/${n % 40}`,
];
const hash = (i, salt) => {
  let x = Math.imul(i ^ salt, 0x9e3779b1) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) >>> 0;
  return (x ^ (x >>> 13)) >>> 0;
};
const hex = (i, salt, n) => hash(i, salt).toString(16).padStart(8, '0').slice(0, n);
const requestId = (i) =>
  `${hex(i, 1, 8)}-${hex(i, 2, 4)}-4${hex(i, 3, 3)}-8${hex(i, 4, 3)}-${hex(i, 5, 8)}${hex(i, 6, 4)}`;

function entry(i) {
  const r = hash(i, 7);
  const at = BASE + i * 100;
  const accountId = `acct-${r % 10}`;
  if (i % 1000 === 1) {
    return {
      at,
      level: 'info',
      source: 'jobs',
      message: `Log retention deleted ${r % 5000} entries`,
      context: { job: 'log-retention', deleted: r % 5000 },
    };
  }
  if (i % 50 === 1) {
    const email = `user${r % 3000}@example.com`;
    return r % 7 === 0
      ? {
          at,
          level: 'warn',
          source: 'auth',
          message: `Sign-in refused (invalid_credentials): ${email}`,
          context: { reason: 'invalid_credentials', email, ip: `10.0.${r % 256}.${(r >>> 8) % 256}` },
        }
      : {
          at,
          level: 'info',
          source: 'auth',
          message: 'Signed in (password)',
          accountId,
          context: { event: 'signed_in', method: 'password', ip: `10.0.${r % 256}.${(r >>> 8) % 256}` },
        };
  }
  const status = r % 100 === 0 ? 500 : r % 10 === 0 ? 404 : 200;
  const method = METHODS[r % METHODS.length];
  const path = PATHS[(r >>> 3) % PATHS.length](r >>> 5);
  return requestEntry({ at, method, path, status, accountId, durationMs: (r % 300) / 10, requestId: requestId(i) });
}

const ms = (started) => performance.now() - started;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-bench-logs-'));
try {
  // --- The writer, with and without the index -------------------------------------------------------------------
  const indexed = openDatabase({ databaseUrl: null, dataDir: path.join(dir, 'indexed') });
  const plain = openDatabase({ databaseUrl: null, dataDir: path.join(dir, 'plain') });
  await migrateToLatest(indexed);
  await migrateToLatest(plain);
  // The database as it was before migration 0006: no FTS5 table, no trigger, a writer that indexes nothing.
  const { sql } = await import('kysely');
  for (const statement of [
    'DROP TRIGGER system_logs_search_delete',
    'DROP TRIGGER system_logs_search_update',
    'DROP TABLE system_logs_search',
  ]) {
    await sql.raw(statement).execute(plain.kysely);
  }
  const before = {
    ...plain,
    dialect: { ...plain.dialect, logSearch: { ...plain.dialect.logSearch, indexLogRows: async () => {} } },
  };

  const options = {
    flushEveryMs: 3_600_000,
    batchSize: BATCH,
    maxQueue: BATCH * 4,
    onError: (error) => {
      throw error;
    },
  };
  const writers = { indexed: createLogWriter(indexed, options), plain: createLogWriter(before, options) };
  const spent = { indexed: [], plain: [] };
  console.log(`Filling two SQLite databases with ${ROWS.toLocaleString('en-US')} entries, ${BATCH} a batch…`);
  const fillStarted = performance.now();
  for (let start = 0; start < ROWS; start += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, ROWS - start) }, (_, k) => entry(start + k));
    // Alternately, so that both see the same load of the machine.
    for (const name of start % (2 * BATCH) === 0 ? ['indexed', 'plain'] : ['plain', 'indexed']) {
      for (const e of batch) writers[name].write(e);
      const started = performance.now();
      await writers[name].flush();
      spent[name].push(ms(started));
    }
    if ((start / BATCH) % 200 === 0 && start > 0) process.stdout.write(`  ${start.toLocaleString('en-US')}\n`);
  }
  await writers.indexed.close();
  await writers.plain.close();
  const perEntry = (batches) => (batches.reduce((a, b) => a + b, 0) * 1000) / (batches.length * BATCH);
  const tenth = Math.max(1, Math.floor(spent.indexed.length / 10));
  const write = {
    indexedUs: round(perEntry(spent.indexed)),
    plainUs: round(perEntry(spent.plain)),
    lastTenthIndexedUs: round(perEntry(spent.indexed.slice(-tenth))),
    lastTenthPlainUs: round(perEntry(spent.plain.slice(-tenth))),
    batchMedianMs: { indexed: round(median(spent.indexed)), plain: round(median(spent.plain)) },
  };
  write.ratio = round(write.indexedUs / write.plainUs, 2);
  write.lastTenthRatio = round(write.lastTenthIndexedUs / write.lastTenthPlainUs, 2);
  console.log(`Filled in ${round(ms(fillStarted) / 1000)} s.`);
  console.log('Writer, per entry (formatting and store, µs):', write);

  // --- GET /api/logs, through the index and as the scan it replaced ------------------------------------------------
  const adminId = 'bench-admin';
  const now = new Date().toISOString();
  await indexed.kysely
    .insertInto('accounts')
    .values({
      id: adminId,
      email: 'admin@example.com',
      is_admin: 1,
      user_metadata: '{}',
      app_metadata: '{}',
      marketing_emails: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();

  // The paged answer as it was computed before: an exact count and the page, with no index candidates.
  async function scanPage(db, accountId, { page, limit, ...filters }) {
    const query = await logQueryFor(db.kysely, accountId, filters);
    const totalItems = await countLogRows(db.kysely, query);
    const rows = await readLogPage(db, query, { totalItems, offset: (page - 1) * limit, limit });
    return { data: rows.map((r) => ({ id: Number(r.id) })), pagination: { totalItems } };
  }
  async function scanViewer(db, accountId, { limit, ...filters }) {
    const query = await logQueryFor(db.kysely, accountId, filters);
    return (await listLogRows(db.kysely, query, { limit, offset: 0 })).map((r) => ({ id: Number(r.id) }));
  }

  const rare = requestId(Math.floor(ROWS * 0.37)).slice(0, 13);
  const scenarios = [
    { name: 'administrator, no search', who: adminId, query: { page: 1, limit: 20 } },
    { name: 'administrator, no search, last page', who: adminId, query: { page: Math.ceil(ROWS / 20), limit: 20 } },
    { name: `search a request id (${rare}, 1 match)`, who: adminId, query: { page: 1, limit: 20, search: rare } },
    {
      name: 'search an email (user1234@example.com)',
      who: adminId,
      query: { page: 1, limit: 20, search: 'user1234@example.com' },
    },
    { name: 'search a path (/api/keys/3, ~4%)', who: adminId, query: { page: 1, limit: 20, search: '/api/keys/3' } },
    { name: 'search a path, page 50', who: adminId, query: { page: 50, limit: 20, search: '/api/keys/3' } },
    {
      name: 'search a common term (GET /api/tables)',
      who: adminId,
      query: { page: 1, limit: 20, search: 'GET /api/tables' },
    },
    {
      name: 'search nothing there (no-such-thing)',
      who: adminId,
      query: { page: 1, limit: 20, search: 'no-such-thing' },
    },
    { name: 'search 2 characters, rare (zq)', who: adminId, query: { page: 1, limit: 20, search: 'zq' } },
    { name: 'search 2 characters, common (/a)', who: adminId, query: { page: 1, limit: 20, search: '/a' } },
    {
      name: 'level=error + search /api/tables',
      who: adminId,
      query: { page: 1, limit: 20, level: 'error', search: '/api/tables' },
    },
    { name: 'one account + search its request id', who: 'acct-3', query: { page: 1, limit: 20, search: rare } },
    { name: 'one account + search (Signed in)', who: 'acct-3', query: { page: 1, limit: 20, search: 'Signed in' } },
    {
      name: 'viewer (500 newest) + search a request id',
      who: adminId,
      viewer: true,
      query: { limit: 500, search: rare },
    },
    {
      name: 'viewer (500 newest) + search (/api/keys/3)',
      who: adminId,
      viewer: true,
      query: { limit: 500, search: '/api/keys/3' },
    },
  ];
  const results = [];
  for (const s of scenarios) {
    const run = {
      indexed: () => (s.viewer ? listRecentLogs(indexed, s.who, s.query) : listLogsPage(indexed, s.who, s.query)),
      scan: () => (s.viewer ? scanViewer(indexed, s.who, s.query) : scanPage(indexed, s.who, s.query)),
    };
    const times = { indexed: [], scan: [] };
    const answers = {};
    for (let i = 0; i < REPEAT; i++) {
      for (const way of i % 2 === 0 ? ['indexed', 'scan'] : ['scan', 'indexed']) {
        const started = performance.now();
        answers[way] = await run[way]();
        times[way].push(ms(started));
      }
    }
    const rowsOf = (answer) => (Array.isArray(answer) ? answer : answer.data).map((r) => r.id);
    if (JSON.stringify(rowsOf(answers.indexed)) !== JSON.stringify(rowsOf(answers.scan))) {
      throw new Error(`${s.name}: the index and the scan answered different entries`);
    }
    const indexedMs = median(times.indexed);
    const scanMs = median(times.scan);
    const total = Array.isArray(answers.indexed)
      ? `${answers.indexed.length} entries`
      : `${answers.indexed.pagination.totalItems}${answers.indexed.pagination.totalItemsCapped ? '+' : ''} of ${answers.scan.pagination.totalItems}`;
    results.push({
      scenario: s.name,
      matches: total,
      indexedMs: round(indexedMs),
      scanMs: round(scanMs),
      speedup: round(scanMs / indexedMs),
    });
  }
  console.table(results);

  // --- The retention job's deletes, with and without the index ----------------------------------------------------
  // The oldest DELETES entries of each database, LOG_RETENTION_CHUNK a statement, alternately.
  const DELETES = Math.min(50_000, Math.floor(ROWS / 10));
  const deleteMs = { indexed: [], plain: [] };
  const through = await findLogPosition(indexed.kysely, ROWS - DELETES);
  for (let done = 0; done < DELETES; done += LOG_RETENTION_CHUNK) {
    for (const [name, db] of [
      ['indexed', indexed],
      ['plain', plain],
    ]) {
      const started = performance.now();
      await deleteOldLogs(db.kysely, { through }, LOG_RETENTION_CHUNK);
      deleteMs[name].push(ms(started));
    }
  }
  const retention = {
    chunk: LOG_RETENTION_CHUNK,
    statementMedianMs: { indexed: round(median(deleteMs.indexed)), plain: round(median(deleteMs.plain)) },
    perEntryUs: {
      indexed: round((deleteMs.indexed.reduce((a, b) => a + b, 0) * 1000) / DELETES),
      plain: round((deleteMs.plain.reduce((a, b) => a + b, 0) * 1000) / DELETES),
    },
  };
  retention.ratio = round(retention.perEntryUs.indexed / retention.perEntryUs.plain, 2);
  console.log(`Retention, the oldest ${DELETES.toLocaleString('en-US')} entries:`, retention);
  await indexed.close();

  // The migration's backfill of an existing log, on the database without the index.
  const backfillStarted = performance.now();
  await plain.dialect.logSearch.createLogSearchIndex(plain.kysely);
  const backfillS = round(ms(backfillStarted) / 1000);
  console.log(`Migration 0006 on ${(ROWS - DELETES).toLocaleString('en-US')} existing entries: ${backfillS} s`);
  await plain.close();

  const summary = {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, node: process.version },
    rows: ROWS,
    repeat: REPEAT,
    write,
    retention,
    backfillS,
    queries: results,
  };
  await fs.writeFile(new URL('./results/logs-latest.json', import.meta.url), `${JSON.stringify(summary, null, 2)}\n`);
  console.log('Written to bench/results/logs-latest.json');
} finally {
  await fs.rm(dir, { recursive: true, force: true });
  await unregister();
}
// SQLite's checkpoint worker (db/dialect/sqlite-checkpoints.ts) still holds the event loop after the databases
// closed: leave explicitly, as the server's main.ts does.
process.exit(0);

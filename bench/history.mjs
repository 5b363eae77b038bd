// `npm run bench:history`: the change history at a million changes. Starts Basalt (SQLite, or PostgreSQL with
// --engine postgres in a database of its own, dropped at the end), writes a few real changes through the API,
// seeds a million history entries straight into the database in one statement (with the kept history counts,
// when the database has them, as a write through Basalt would set them), then writes a few more real changes and
// measures with autocannon: the console's first pages (with their total), a page deep in the history (by page
// number, and by the `before` cursor when the server has it), another table's page, a revert of the latest
// change and a restore to a recent version. The bare SQL of the same reads, timed in this process, is the
// baseline: the ratio says what Basalt adds to it.
// Usage: node bench/history.mjs [--changes 1000000] [--engine sqlite|postgres] [--database-url …] [--duration 5]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { postgresDatabase, startBasalt } from './setup.mjs';

const { values } = parseArgs({
  options: {
    changes: { type: 'string', default: '1000000' },
    engine: { type: 'string', default: 'sqlite' },
    'database-url': { type: 'string' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '2' },
  },
});
const CHANGES = Number(values.changes);
const DURATION = Number(values.duration);
const CONNECTIONS = Number(values.connections);
const SERVER_URL =
  values['database-url'] ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
// The seeded changes: nine in ten on `notes` (updates of its RECORDS records), the rest on `other`.
const RECORDS = 1_000;
const OTHER_SHARE = 0.1;
// Spread over the last 80 days: inside the default retention (90), so no run prunes them meanwhile.
const SPREAD_SECONDS = 80 * 24 * 3600;
const PAGE = 20;
const DEEP_OFFSET = Math.floor((CHANGES * (1 - OTHER_SHARE)) / 2 / PAGE) * PAGE;
const RECENT = 5;

// SQLite keeps its file in the data folder; on PostgreSQL a database of its own, dropped at the end.
const database = () =>
  values.engine === 'postgres'
    ? postgresDatabase(SERVER_URL, `basalt_bench_history_${process.pid}`)
    : { url: '', drop: async () => {} };

/** sqlClient is a bare connection to Basalt's database: `query(text, params)` → rows; `?` placeholders. */
async function sqlClient({ dataDir, databaseUrl }) {
  if (databaseUrl) {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const numbered = (text) => {
      let n = 0;
      return text.replace(/\?/g, () => `$${++n}`);
    };
    return {
      query: async (text, params = []) => (await client.query(numbered(text), params)).rows,
      close: () => client.end(),
    };
  }
  const { default: Database } = await import('better-sqlite3');
  const file = new Database(path.join(dataDir, 'basalt.db'));
  file.pragma('busy_timeout = 10000');
  const statements = new Map();
  const prepared = (text) => {
    if (!statements.has(text)) statements.set(text, file.prepare(text));
    return statements.get(text);
  };
  return {
    query: async (text, params = []) => {
      const statement = prepared(text);
      if (statement.reader) return statement.all(...params);
      statement.run(...params);
      return [];
    },
    close: async () => file.close(),
  };
}

async function http(base, method, url, { headers = {}, json } = {}) {
  const res = await fetch(base + url, {
    method,
    headers: { ...(json !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: json !== undefined ? JSON.stringify(json) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function ok(base, method, url, options) {
  const res = await http(base, method, url, options);
  if (res.status >= 300) throw new Error(`${method} ${url} → ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * seedChanges inserts `count` RECORD_UPDATE entries of `table` (oldest first, after every change so far) in one
 * statement, and adds them to the kept history counts when the database keeps them (migration 0011).
 */
async function seedChanges(sql, postgres, { accountId, table, count, fromIndex }) {
  const now = Date.now() / 1000;
  const step = SPREAD_SECONDS / CHANGES;
  const state = (title) => `'{"id":' || ((i % ${RECORDS}) + 1) || ',"title":"${title} ' || i || '"}'`;
  const columns = `account_id, table_id, table_name, record_id, change_type, previous_state, new_state, actor_id,
    created_at`;
  const values = (createdAt) => `SELECT ?, ?, ?, (i % ${RECORDS}) + 1, 'RECORD_UPDATE', ${state('before')},
    ${state('after')}, ?, ${createdAt}`;
  const params = [accountId, table.id, table.name, accountId];
  if (postgres) {
    await sql.query(
      `INSERT INTO change_history (${columns})
       ${values(`to_char(to_timestamp(?::float8 - (?::int - i) * ?::float8) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`)}
       FROM generate_series(?::int, ?::int) i`,
      [...params, now, CHANGES, step, fromIndex, fromIndex + count - 1],
    );
  } else {
    await sql.query(
      `INSERT INTO change_history (${columns})
       WITH RECURSIVE s(i) AS (SELECT ? UNION ALL SELECT i + 1 FROM s WHERE i < ?)
       ${values(`strftime('%Y-%m-%dT%H:%M:%fZ', ? - (? - i) * ?, 'unixepoch')`)} FROM s`,
      [fromIndex, fromIndex + count - 1, ...params, now, CHANGES, step],
    );
  }
  const kept = postgres
    ? await sql.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'change_history_counts'`)
    : await sql.query(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'change_history_counts'`);
  if (kept.length > 0) {
    // Into shard 0, made if no write has picked it yet (db/history-counts.ts makes shards on first use).
    await sql.query(
      `INSERT INTO change_history_counts (account_id, table_id, shard, change_count) VALUES (?, ?, 0, ?)
       ON CONFLICT (account_id, table_id, shard)
       DO UPDATE SET change_count = change_history_counts.change_count + excluded.change_count`,
      [accountId, table.id, count],
    );
  }
}

/** timedSql runs a bare query `times` times in a row and returns its median and 99th percentile in ms. */
async function timedSql(sql, text, params, times = 50) {
  const ms = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await sql.query(text, params);
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  return { p50: ms[Math.floor(ms.length / 2)], mean: ms.reduce((a, b) => a + b, 0) / ms.length };
}

/** timedCalls makes `times` calls one after another and returns their percentiles, mean and rate. */
async function timedCalls(times, call) {
  const ms = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await call();
    ms.push(performance.now() - started);
  }
  const mean = ms.reduce((a, b) => a + b, 0) / ms.length;
  ms.sort((a, b) => a - b);
  const at = (q) => ms[Math.min(ms.length - 1, Math.floor(ms.length * q))];
  return { p50: at(0.5), p99: at(0.99), mean, rps: 1000 / mean, failed: 0 };
}

function run(options) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });
}

const rows = [];
/**
 * report prints and keeps one autocannon run, or one of timedCalls. autocannon's percentiles are whole
 * milliseconds and its mean averages them, which says nothing below a millisecond: the mean of its runs here is
 * their connections over their rate (Little's law).
 */
function report(label, result, bare) {
  const timed = !('requests' in result);
  const mean = timed ? result.mean : (result.connections * 1000) / result.requests.average;
  const row = {
    label,
    p50: timed ? Number(result.p50.toFixed(2)) : result.latency.p50,
    p99: timed ? Number(result.p99.toFixed(2)) : result.latency.p99,
    mean,
    rps: timed ? result.rps : result.requests.average,
    bareMean: bare?.mean ?? null,
    failed: timed ? result.failed : result.non2xx + result.errors,
  };
  rows.push(row);
  const ratio = bare ? `  bare SQL ${bare.mean.toFixed(2)} ms (×${(mean / Math.max(bare.mean, 0.01)).toFixed(1)})` : '';
  console.log(
    `${label.padEnd(42)} p50 ${String(row.p50).padStart(5)} ms  p99 ${String(row.p99).padStart(5)} ms  mean ${mean.toFixed(2).padStart(7)} ms  ${row.rps.toFixed(0).padStart(5)} req/s${ratio}${row.failed ? `  (${row.failed} failed)` : ''}`,
  );
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-history-'));
const db = await database();
let server;
let sql;
try {
  const dataDir = path.join(work, 'basalt');
  server = await startBasalt(dataDir, [], { databaseUrl: db.url });
  const base = `http://127.0.0.1:${server.port}`;
  const { anonKey } = await ok(base, 'GET', '/api/config');
  const { session, user } = await ok(base, 'POST', '/api/auth/register', {
    json: { username: 'bench', email: 'bench@example.com', password: 'Bench!pass1' },
  });
  const auth = { authorization: `Bearer ${session.access_token}` };
  const accountId = user.id;
  const create = (name) =>
    ok(base, 'POST', '/api/tables', { headers: auth, json: { name, schema: { title: { type: 'text' } } } });
  const notes = await create('notes');
  const other = await create('other');
  const records = Array.from({ length: RECORDS }, (_, i) => ({ title: `note ${i + 1}` }));
  await ok(base, 'POST', '/rest/v1/notes', { headers: { ...auth, apikey: anonKey }, json: records });

  sql = await sqlClient({ dataDir, databaseUrl: db.url });
  const postgres = Boolean(db.url);
  const started = performance.now();
  const onOther = Math.round(CHANGES * OTHER_SHARE);
  await seedChanges(sql, postgres, { accountId, table: notes, count: CHANGES - onOther, fromIndex: 1 });
  await seedChanges(sql, postgres, { accountId, table: other, count: onOther, fromIndex: CHANGES - onOther + 1 });
  // What autovacuum would do soon after such a load: the planner's statistics and the visibility map.
  if (postgres) await sql.query('VACUUM ANALYZE change_history');
  else await sql.query('ANALYZE');
  console.log(
    `seeded ${CHANGES.toLocaleString('en-US')} changes in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  // The recent changes a revert and a restore work on: updates of RECENT records.
  for (let i = 1; i <= RECENT; i++) {
    await ok(base, 'PATCH', `/api/tables/${notes.id}/records/${i}`, { headers: auth, json: { title: `recent ${i}` } });
  }
  const notesTotal = CHANGES - onOther + 1 + RECORDS + RECENT;
  const first = await ok(base, 'GET', `/api/history?tableId=${notes.id}&limit=50`, { headers: auth });
  if (first.pagination.totalItems !== notesTotal) {
    throw new Error(`seeded ${notesTotal} changes of notes, but Basalt counts ${first.pagination.totalItems}`);
  }
  const [latest] = first.data;
  const version = first.data[RECENT].id;

  console.log(
    `${values.engine}, ${CHANGES.toLocaleString('en-US')} changes (${notesTotal.toLocaleString('en-US')} of one table), ${CONNECTIONS} connections, ${DURATION} s each:`,
  );
  const get = (label, url, bare) =>
    run({ url: base + url, headers: auth, connections: CONNECTIONS, duration: DURATION }).then((r) =>
      report(label, r, bare),
    );
  // The bare page reads its ids from the (account_id, table_id, id) index first, then their rows: the fastest
  // form on both engines (history.store.ts says why); where that index does not exist, the same SQL is what a
  // bare server would have run.
  const ids = (where, tail = '') =>
    `SELECT * FROM change_history WHERE id IN (SELECT id FROM change_history WHERE account_id = ? AND table_id = ?${where}
     ORDER BY id DESC LIMIT ${PAGE}${tail}) ORDER BY id DESC`;
  const page = ids('');
  const firstPageBare = await timedSql(sql, page, [accountId, notes.id]);
  const countBare = await timedSql(
    sql,
    'SELECT count(*) AS n FROM change_history WHERE account_id = ? AND table_id = ?',
    [accountId, notes.id],
    10,
  );
  console.log(
    `(bare SQL: a page ${firstPageBare.mean.toFixed(2)} ms, its table's count(*) ${countBare.mean.toFixed(1)} ms)`,
  );
  await get('first page, all tables', `/api/history?limit=${PAGE}`, firstPageBare);
  await get('first page of one table', `/api/history?tableId=${notes.id}&limit=${PAGE}`, firstPageBare);
  await get('console first page (limit 50, its total)', `/api/history?tableId=${notes.id}&limit=50`, firstPageBare);
  await get('first page of the smaller table', `/api/history?tableId=${other.id}&limit=${PAGE}`, firstPageBare);
  const deepBare = await timedSql(sql, ids('', ` OFFSET ${DEEP_OFFSET}`), [accountId, notes.id], 10);
  await get(
    `deep page by number (offset ${DEEP_OFFSET.toLocaleString('en-US')})`,
    `/api/history?tableId=${notes.id}&limit=${PAGE}&page=${DEEP_OFFSET / PAGE + 1}`,
    deepBare,
  );
  const [edge] = await sql.query(
    `SELECT id FROM change_history WHERE account_id = ? AND table_id = ? ORDER BY id DESC LIMIT 1 OFFSET ${DEEP_OFFSET - 1}`,
    [accountId, notes.id],
  );
  const cursorUrl = `/api/history?tableId=${notes.id}&limit=${PAGE}&before=${edge.id}`;
  // A server without the cursor ignores it and answers the first page.
  const probe = await http(base, 'GET', cursorUrl, { headers: auth });
  if (probe.status === 200 && probe.body.data[0]?.id < edge.id) {
    const keysetBare = await timedSql(sql, ids(' AND id < ?'), [accountId, notes.id, edge.id]);
    await get('the same deep page by cursor (before=)', cursorUrl, keysetBare);
  }

  // A revert of the latest change, then of that revert, and so on: each one undoes the one before. These calls
  // depend on each other's answers, so they run one at a time, each timed here (autocannon's whole milliseconds
  // would round most of them to 0).
  let next = latest.id;
  report(
    'revert the latest change',
    await timedCalls(100, async () => {
      const { change } = await ok(base, 'POST', `/api/history/${next}/revert`, { headers: auth });
      next = change.id;
    }),
  );
  // A restore to the version RECENT changes back, then to the one before that restore, and so on: each reverts
  // RECENT changes.
  next = version;
  report(
    `restore ${RECENT} changes back`,
    await timedCalls(40, async () => {
      const result = await ok(base, 'POST', `/api/history/${next}/restore`, { headers: auth });
      if (result.reverted !== RECENT) throw new Error(`a restore reverted ${result.reverted} changes, not ${RECENT}`);
      next = result.undoChangeId;
    }),
  );

  // What every record write pays for its history: an update of one record (one entry, and its count).
  const write = await run({
    url: base,
    headers: { ...auth, 'content-type': 'application/json' },
    connections: CONNECTIONS,
    duration: DURATION,
    requests: [
      {
        method: 'PATCH',
        setupRequest: (req) => ({
          ...req,
          path: `/api/tables/${notes.id}/records/${1 + Math.floor(Math.random() * RECORDS)}`,
          body: JSON.stringify({ title: `write ${Math.random()}` }),
        }),
      },
    ],
  });
  report('update a record (one history entry)', write);

  const file = path.join(path.dirname(new URL(import.meta.url).pathname), 'results', `history-${values.engine}.json`);
  fs.writeFileSync(
    file,
    `${JSON.stringify({ engine: values.engine, changes: CHANGES, connections: CONNECTIONS, duration: DURATION, rows }, null, 2)}\n`,
  );
} finally {
  await sql?.close();
  server?.child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 500));
  await db.drop();
  fs.rmSync(work, { recursive: true, force: true });
}

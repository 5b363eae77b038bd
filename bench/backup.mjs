// `npm run bench:backup`: a backup of a large instance and what it costs the writes meanwhile. Starts Basalt
// (SQLite, or PostgreSQL with --engine postgres in a database of its own, dropped at the end), seeds the benchmark's
// `items` table straight into the database (on SQLite until the file reaches --size-mb, 1 GB by default; on
// PostgreSQL --rows rows, a million by default), then measures:
//   - the records bench's create rate (POST /rest/v1/items) for --duration seconds with no backup running: the
//     baseline of the same run;
//   - the same create load while a backup runs, from its start to its end: the ratio against the baseline (target
//     ≥ 0.8×), and the backup's time and archive size;
//   - a restore of that backup: its time (the backup of the current state it takes first included).
// Usage: node bench/backup.mjs [--engine sqlite|postgres] [--size-mb 1024] [--rows 1000000] [--duration 10]
//        [--connections 16] [--format auto|logical] [--database-url …] [--rounds]
//        [--pace 0.25]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { basaltScenarios, load, postgresDatabase, root, seedBasalt, startBasalt } from './setup.mjs';

const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'sqlite' },
    'size-mb': { type: 'string', default: '1024' },
    rows: { type: 'string', default: '1000000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
    format: { type: 'string', default: 'auto' },
    'database-url': { type: 'string' },
    rounds: { type: 'boolean', default: false },
    pace: { type: 'string' },
  },
});
const POSTGRES = values.engine === 'postgres';
const DURATION = Number(values.duration);
const CONNECTIONS = Number(values.connections);
const SERVER_URL =
  values['database-url'] ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
// Each seeded row carries this many characters of random hex, so that the data compresses as real data does.
const PADDING = 1000;

async function http(base, method, url, { headers = {}, json } = {}) {
  const res = await fetch(base + url, {
    method,
    headers: { ...(json !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: json !== undefined ? JSON.stringify(json) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

/** seedDirectly fills the items table straight in the database and sets its kept count as a write would. */
async function seedDirectly({ dataDir, databaseUrl }, tableId) {
  const table = `"t_${tableId}"`;
  const recount = `UPDATE table_row_counts
    SET row_count = CASE WHEN shard = 0 THEN (SELECT count(*) FROM ${table}) ELSE 0 END, version = version + 1
    WHERE table_id = `;
  if (databaseUrl) {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const rows = Number(values.rows);
    for (let start = 1; start <= rows; start += 100_000) {
      await client.query(
        `INSERT INTO ${table} (name, qty, done, owner)
         SELECT 'item ' || i || ' ' || substr(array_to_string(ARRAY(SELECT md5(random()::text || i)
           FROM generate_series(1, ${Math.ceil(PADDING / 32)})), ''), 1, ${PADDING}), i % 1000, i % 2 = 1, 'o'
         FROM generate_series($1::int, $2::int) i`,
        [start, Math.min(rows, start + 99_999)],
      );
    }
    await client.query(`${recount}$1`, [tableId]);
    // What the server would do soon after such a load (statistics, the visibility map, the WAL written out),
    // done now so that it does not land in the middle of the baseline.
    await client.query(`VACUUM ANALYZE ${table}`);
    await client.query('CHECKPOINT');
    await client.end();
    return rows;
  }
  const { default: Database } = await import('better-sqlite3');
  const file = new Database(path.join(dataDir, 'basalt.db'));
  file.pragma('busy_timeout = 10000');
  const target = Number(values['size-mb']) * 1024 * 1024;
  const insert = file.prepare(`INSERT INTO ${table} (name, qty, done, owner)
    WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 10000)
    SELECT 'item ' || i || ' ' || hex(randomblob(${PADDING / 2})), i % 1000, i % 2, 'o' FROM s`);
  const size = () => file.pragma('page_count', { simple: true }) * file.pragma('page_size', { simple: true });
  while (size() < target) file.transaction(() => insert.run())();
  file.prepare(`${recount}?`).run(tableId);
  const rows = file.prepare(`SELECT count(*) AS n FROM ${table}`).get().n;
  file.pragma('wal_checkpoint(TRUNCATE)');
  file.close();
  return rows;
}

// Runs the create load in rounds until `until()` resolves, and returns the requests per second over all of it.
// With --rounds each round's rate is printed, with what `describe()` says (the backup's progress), to see which of a
// backup's phases costs the writes.
async function loadUntil(scenario, until, describe = async () => '') {
  let done = false;
  const finished = until().then((value) => {
    done = true;
    return value;
  });
  let requests = 0;
  let seconds = 0;
  while (!done) {
    const started = Date.now();
    const result = await load(scenario, { duration: 2, connections: CONNECTIONS });
    requests += result['2xx'];
    seconds += (Date.now() - started) / 1000;
    if (values.rounds)
      console.log(`    ${(result['2xx'] / ((Date.now() - started) / 1000)).toFixed(0)}/s ${await describe()}`);
  }
  return { rate: requests / seconds, value: await finished };
}

async function waitFor(base, headers, id, field) {
  for (;;) {
    const backup = await http(base, 'GET', `/api/backups/${id}`, { headers });
    const status = field === 'restore' ? backup.restore?.status : backup.status;
    if (status && status !== 'IN_PROGRESS') return backup;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-bench-backup-'));
const dataDir = path.join(work, 'data');
const database = POSTGRES ? await postgresDatabase(SERVER_URL, `basalt_bench_backup_${process.pid}`) : null;
process.env.BACKUP_FORMAT = values.format;
// The server's BACKUP_PACE (its default when not given): the share of the time the backup reads the database.
if (values.pace) process.env.BACKUP_PACE = values.pace;
const basalt = await startBasalt(dataDir, [], { databaseUrl: database?.url ?? '' });
try {
  const base = `http://127.0.0.1:${basalt.port}`;
  const seeded = await seedBasalt(base, { rows: 0 });
  const rows = await seedDirectly({ dataDir, databaseUrl: database?.url ?? '' }, seeded.tableId);
  const admin = seeded.rest;
  const create = basaltScenarios({ url: base, ...seeded }).find((s) => s.op === 'create' && s.target === 'rest/v1');
  console.log(`Seeded ${rows.toLocaleString('en-US')} rows; measuring the create rate without a backup…`);
  // A warm-up first (the JIT, the statement caches), then the baseline in the same 2-second rounds as the
  // measurement during the backup; taken again after it, and averaged, so that drift over the run cancels out.
  await load(create, { duration: 3, connections: CONNECTIONS });
  const before = await loadUntil(create, () => new Promise((resolve) => setTimeout(resolve, DURATION * 1000)));
  console.log(`  ${before.rate.toFixed(0)} creates/s. Backing up under the same load…`);
  const started = await http(base, 'POST', '/api/backups', { headers: admin, json: { name: 'bench' } });
  const backupStart = Date.now();
  const during = await loadUntil(
    create,
    () => waitFor(base, admin, started.id, 'status'),
    async () => {
      const row = await http(base, 'GET', `/api/backups/${started.id}`, { headers: admin });
      return `at ${((Date.now() - backupStart) / 1000).toFixed(0)} s: ${row.status} ${(row.progress.bytes / 1e6).toFixed(0)} MB`;
    },
  );
  const backup = during.value;
  if (backup.status !== 'COMPLETED') throw new Error(`the backup failed: ${backup.error}`);
  const after = await loadUntil(create, () => new Promise((resolve) => setTimeout(resolve, DURATION * 1000)));
  const baseline = (before.rate + after.rate) / 2;
  console.log(
    `  ${during.rate.toFixed(0)} creates/s during a ${backup.durationMs} ms backup, ${after.rate.toFixed(0)} after. Restoring it…`,
  );
  const restoreStart = Date.now();
  await http(base, 'POST', `/api/backups/${backup.id}/restore`, { headers: admin });
  // The restored database has the same account and session: the backup was taken after both were made.
  const restored = await waitFor(base, admin, backup.id, 'restore');
  const restoreMs = Date.now() - restoreStart;
  if (restored.restore.status !== 'COMPLETED') throw new Error(`the restore failed: ${restored.restore.error}`);
  const dbBytes = POSTGRES ? null : fs.statSync(path.join(dataDir, 'basalt.db')).size;
  const result = {
    engine: values.engine,
    format: backup.format,
    rows,
    databaseBytes: dbBytes,
    archiveBytes: backup.size,
    backupMs: backup.durationMs,
    createRate: {
      before: Math.round(before.rate),
      duringBackup: Math.round(during.rate),
      after: Math.round(after.rate),
    },
    pace: Number(process.env.BACKUP_PACE ?? 0.25),
    ratio: Number((during.rate / baseline).toFixed(2)),
    restoreMs,
    connections: CONNECTIONS,
    at: new Date().toISOString(),
  };
  console.log(JSON.stringify(result, null, 2));
  fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  fs.writeFileSync(
    path.join(root, `bench/results/backup-${values.engine}.json`),
    `${JSON.stringify(result, null, 2)}\n`,
  );
} finally {
  basalt.child.kill();
  await database?.drop();
  fs.rmSync(work, { recursive: true, force: true });
}

// `npm run bench:insight-index`: the performance insights' one-click index, measured (issue 33: "the suggested
// index, applied, makes the bench's list faster"). A server in this process (tsx, the sources), a table of --rows
// rows seeded through the record API with a text column `status` that has no index and a value only a few rows
// have; the console grid's list filtered on it (`/api/tables/:id/records?status=eq.flagged&limit=20`, with its
// exact count) read --reads times one after another; then the read shapes are flushed and the insights job runs
// with its default limits, as it would every hour; the UNINDEXED_FILTER insight it writes is applied through
// POST /api/insights/:id/apply; and the same list is read again. Latencies are the client's, request by request,
// so the ratio of medians is what the index did (both halves share the machine's load of the moment).
// SQLite in a temporary directory; DATABASE_URL=postgres://… (an empty database) for PostgreSQL.
// Results go to bench/results/insight-index-<engine>.json.
// Usage: node bench/insight-index.mjs [--rows 400000] [--reads 60]
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { register } from 'tsx/esm/api';
import { writeResults } from './on-off.mjs';

const { values } = parseArgs({
  options: { rows: { type: 'string', default: '400000' }, reads: { type: 'string', default: '60' } },
});
const ROWS = Number(values.rows);
const READS = Number(values.reads);
// Ten rows spread over the table have the rare value: fewer than a page, so without an index every read scans the
// whole table.
const FLAG_EVERY = Math.max(1, Math.floor(ROWS / 10));

const unregister = register();
const src = (file) => new URL(`../packages/server/src/${file}`, import.meta.url).href;
const { loadConfig } = await import(src('config.ts'));
const { buildApp } = await import(src('app.ts'));
const { flushQueryShapes } = await import(src('features/insights/query-shapes.ts'));
const { examineTables } = await import(src('features/insights/insights.service.ts'));

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-insight-index-'));
const config = {
  ...loadConfig({ LOG_LEVEL: 'silent', API_RATE_LIMIT: '100000000', AUTH_RATE_LIMIT: '1000' }),
  port: 0,
  dataDir,
  databaseUrl: process.env.DATABASE_URL || null,
  consoleDir: null,
};
const app = await buildApp(config);
const address = await app.listen({ port: 0, host: '127.0.0.1' });
const db = app.basalt.db;

async function call(method, url, headers, body) {
  const res = await fetch(`${address}${url}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

try {
  const registered = await call(
    'POST',
    '/api/auth/register',
    {},
    {
      username: 'bench',
      email: 'bench@example.test',
      password: 'Sturdy-Passw0rd!',
    },
  );
  const headers = { authorization: `Bearer ${registered.session.access_token}` };
  const table = await call('POST', '/api/tables', headers, {
    name: 'orders',
    schema: { status: { type: 'text' }, qty: { type: 'number' }, note: { type: 'text' } },
  });
  const seedBegan = performance.now();
  const STATUSES = ['open', 'closed', 'pending'];
  for (let start = 0; start < ROWS; start += 1000) {
    const rows = Array.from({ length: Math.min(1000, ROWS - start) }, (_, i) => {
      const n = start + i;
      return { status: n % FLAG_EVERY === FLAG_EVERY - 1 ? 'flagged' : STATUSES[n % 3], qty: n % 97, note: `r${n}` };
    });
    await call('POST', `/api/tables/${table.id}/records`, headers, rows);
  }
  console.log(`seeded ${ROWS} rows in ${((performance.now() - seedBegan) / 1000).toFixed(1)} s`);

  const listUrl = `/api/tables/${table.id}/records?status=eq.flagged&limit=20`;
  async function readMany() {
    const ms = [];
    let total = null;
    for (let i = 0; i < READS; i++) {
      const began = performance.now();
      const page = await call('GET', listUrl, headers);
      ms.push(performance.now() - began);
      total = page.total;
    }
    ms.sort((a, b) => a - b);
    const at = (q) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))];
    return { total, medianMs: at(0.5), p95Ms: at(0.95), minMs: ms[0] };
  }

  await readMany(); // warm-up: the page cache and the statement caches, as a used table has them
  const before = await readMany();
  await flushQueryShapes(db);
  await examineTables(db);
  const insights = await call('GET', '/api/insights', headers);
  const insight = insights.find(
    (i) => i.tableId === table.id && i.insightType === 'UNINDEXED_FILTER' && i.details.column === 'status',
  );
  if (!insight) {
    const shapes = await db.kysely.selectFrom('query_shapes').selectAll().execute();
    throw new Error(
      `the insights job suggested no index on status (read shapes ${JSON.stringify(shapes)}): more --rows`,
    );
  }
  const applied = await call('POST', `/api/insights/${insight.id}/apply`, headers);
  if (!applied.insight.implemented || applied.table.schema.status.indexed !== true) {
    throw new Error(`apply did not index status: ${JSON.stringify(applied)}`);
  }
  await readMany();
  const after = await readMany();
  if (after.total !== before.total) throw new Error(`the list changed: ${before.total} → ${after.total} rows`);

  const r1 = (n) => Math.round(n * 10) / 10;
  const engine = db.dialect.name;
  console.log(`\n${engine}, ${ROWS} rows, ${before.total} match; ${READS} reads each, one after another:`);
  console.log(`insight: "${insight.title}" (${insight.impact}; ${JSON.stringify(insight.details)})`);
  console.log(`before Apply: median ${r1(before.medianMs)} ms, p95 ${r1(before.p95Ms)} ms`);
  console.log(`after Apply:  median ${r1(after.medianMs)} ms, p95 ${r1(after.p95Ms)} ms`);
  console.log(`the list is ×${(before.medianMs / after.medianMs).toFixed(1)} as fast (medians)`);
  await writeResults(`insight-index-${engine}.json`, {
    at: new Date().toISOString(),
    engine,
    rows: ROWS,
    matching: before.total,
    reads: READS,
    loadAverage: os.loadavg().map((n) => Math.round(n * 10) / 10),
    insight: { title: insight.title, impact: insight.impact, details: insight.details },
    before,
    after,
    speedup: before.medianMs / after.medianMs,
  });
} finally {
  await app.close();
  await fs.rm(dataDir, { recursive: true, force: true });
  await unregister();
}

// `npm run bench:grid`: what the console's records grid asks of the server on a big table, one request at a
// time as a person paging would: the first, a middle and the last page by id, a page sorted by another column, a
// filtered exact count after a write. Starts Basalt (SQLite, or PostgreSQL with --engine postgres), seeds the
// table directly (bench/setup.mjs) and prints each call's median and worst time over --repeat calls.
// Usage: node bench/grid.mjs [--rows 1000000] [--engine sqlite|postgres] [--database-url …] [--repeat 20]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { postgresDatabase, seedBasalt, startBasalt } from './setup.mjs';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    engine: { type: 'string', default: 'sqlite' },
    'database-url': { type: 'string' },
    repeat: { type: 'string', default: '20' },
  },
});
const ROWS = Number(values.rows);
const REPEAT = Number(values.repeat);
const SERVER_URL =
  values['database-url'] ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

// SQLite keeps its file in the data folder; on PostgreSQL a database of its own, dropped at the end.
const database = () =>
  values.engine === 'postgres'
    ? postgresDatabase(SERVER_URL, `basalt_bench_grid_${process.pid}`)
    : { url: '', drop: async () => {} };

async function timed(label, call) {
  const times = [];
  for (let i = 0; i < REPEAT; i++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(
    `${label.padEnd(44)} median ${median.toFixed(1).padStart(7)} ms   worst ${times.at(-1).toFixed(1).padStart(7)} ms`,
  );
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-grid-'));
const db = await database();
let server;
try {
  const dataDir = path.join(work, 'basalt');
  server = await startBasalt(dataDir, [], { databaseUrl: db.url });
  const base = `http://127.0.0.1:${server.port}`;
  const seeded = await seedBasalt(base, { rows: ROWS, direct: { dataDir, databaseUrl: db.url } });
  const headers = seeded.rest;
  const page = (query) => async () => {
    const res = await fetch(`${base}/api/tables/${seeded.tableId}/records?${query}`, { headers });
    const body = await res.json();
    if (res.status !== 200 || body.total < ROWS) throw new Error(`${res.status} ${JSON.stringify(body).slice(0, 200)}`);
  };
  const size = 25;
  const lastOffset = Math.floor((ROWS - 1) / size) * size;
  const middle = Math.floor(ROWS / 2 / size) * size;
  console.log(`${values.engine}, ${ROWS.toLocaleString('en-US')} rows, page size ${size}, ${REPEAT} calls each:`);
  await timed('first page', page(`limit=${size}&offset=0`));
  await timed('next page', page(`limit=${size}&offset=${size}`));
  await timed('middle page', page(`limit=${size}&offset=${middle}`));
  await timed('last page', page(`limit=${size}&offset=${lastOffset}`));
  await timed('first page sorted by qty desc', page(`limit=${size}&offset=0&orderBy=qty&order=desc`));
  await timed('last page sorted by qty desc', page(`limit=${size}&offset=${lastOffset}&orderBy=qty&order=desc`));
  const counted = { ...headers, prefer: 'count=exact' };
  const list = `${base}/rest/v1/items?select=id&qty=gt.500&limit=20`;
  let n = 0;
  await timed('write, then exact count of qty > 500', async () => {
    const write = await fetch(`${base}/rest/v1/items`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `grid ${n++}`, qty: 900 }),
    });
    if (write.status !== 201) throw new Error(`write: ${write.status}`);
    const res = await fetch(list, { headers: counted });
    await res.arrayBuffer();
  });
} finally {
  server?.child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 500));
  await db.drop();
  fs.rmSync(work, { recursive: true, force: true });
}

// `npm run bench:room`: the Schema Editor's room (issue 14 "Speed"). 50 editors in one project's room on /ws each
// send 5 layout updates a second (each moves one of the layout's 20 tables, as a drag does), for DURATION seconds
// after a warm-up; every editor measures, for each update of another editor that reaches it (in a broadcast, or
// in the answer to its own update when both were merged together), the time from that update's send to its
// receipt, on the clock all editors in this process share. Runs: one node on SQLite, one node on PostgreSQL, and
// two nodes on one PostgreSQL (half the editors on each). The target is p99 ≤ 100 ms. Results go to
// bench/results/room.json. PostgreSQL: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local server.
// Usage: node bench/room.mjs [--editors 50] [--rate 5] [--duration 20] [--runs sqlite,postgres,two-nodes]
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import WebSocket from 'ws';
import { root, startProcess } from './setup.mjs';

const { values } = parseArgs({
  options: {
    editors: { type: 'string', default: '50' },
    rate: { type: 'string', default: '5' },
    duration: { type: 'string', default: '20' },
    runs: { type: 'string', default: 'sqlite,postgres,two-nodes' },
  },
});
const EDITORS = Number(values.editors);
const RATE = Number(values.rate);
const DURATION_MS = Number(values.duration) * 1000;
const WARMUP_MS = 3000;
const TABLES = 20;
const adminUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const now = () => performance.timeOrigin + performance.now();

async function pgQuery(url, text) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

async function startNode(dataDir, databaseUrl) {
  fs.mkdirSync(dataDir, { recursive: true });
  return startProcess(['packages/server/dist/main.js', 'serve', '--port', '0'], {
    logFile: path.join(dataDir, 'stdout.log'),
    env: { BASALT_DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '', LOG_LEVEL: 'info', AUTH_RATE_LIMIT: '100000' },
    pattern: /Server listening at http:\/\/127\.0\.0\.1:(\d+)/,
  });
}

async function call(base, method, url, { token, json } = {}) {
  const res = await fetch(base + url, {
    method,
    headers: {
      ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: json !== undefined ? JSON.stringify(json) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

// Accounts, a project with everyone as DEVELOPER, and a first layout of TABLES tables.
async function seed(base) {
  const { anonKey } = await call(base, 'GET', '/api/config');
  const editors = [];
  for (let i = 0; i < EDITORS; i++) {
    const email = `editor${i}-${randomBytes(3).toString('hex')}@bench.test`;
    const res = await fetch(`${base}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'Bench-Passw0rd!', data: { username: `editor${i}` } }),
    });
    const body = await res.json();
    if (!res.ok) throw new Error(`sign-up: ${res.status} ${JSON.stringify(body)}`);
    editors.push({ email, token: body.access_token, id: body.user.id });
  }
  const owner = editors[0];
  const project = await call(base, 'POST', '/api/projects', { token: owner.token, json: { name: 'Bench room' } });
  for (const editor of editors.slice(1)) {
    await call(base, 'POST', `/api/projects/${project.id}/members`, {
      token: owner.token,
      json: { email: editor.email, role: 'DEVELOPER' },
    });
  }
  const elements = Array.from({ length: TABLES }, (_, t) => ({
    id: `table-${t}`,
    name: `table_${t}`,
    type: 'table',
    position: { x: t * 240, y: 0 },
    fields: [
      { id: `table-${t}.id`, name: 'id', type: 'integer', primary: true },
      { id: `table-${t}.name`, name: 'name', type: 'string' },
      { id: `table-${t}.created`, name: 'created_at', type: 'datetime' },
    ],
  }));
  await call(base, 'POST', `/api/projects/${project.id}/schema`, {
    token: owner.token,
    json: { layout: { elements, version: 0 } },
  });
  return { editors, projectId: project.id };
}

// Reads `updates` from a frame without decoding its layout: the server writes them before the layout.
const LAYOUT_KEY = Buffer.from(',"layout":');
const UPDATES_KEY = '"updates":';
function updatesOf(data) {
  const end = data.indexOf(LAYOUT_KEY);
  if (end === -1) return [];
  const head = data.subarray(0, end).toString();
  const start = head.indexOf(UPDATES_KEY);
  return start === -1 ? [] : JSON.parse(head.slice(start + UPDATES_KEY.length));
}

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

// One editor: one update in flight at a time (the console's rule); a tick while one is in flight sends on its answer.
function runEditor({ url, editor, projectId, latencies, counters, measuring }) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/ws?access_token=${encodeURIComponent(editor.token)}`);
    let layout = null;
    let inFlight = false;
    let due = false;
    let timer = null;
    const sendUpdate = () => {
      if (!layout || inFlight) {
        due = true;
        return;
      }
      due = false;
      inFlight = true;
      const moved = Math.floor(Math.random() * layout.elements.length);
      const elements = layout.elements.map((e, i) =>
        i === moved
          ? { ...e, position: { x: Math.round(Math.random() * 4000), y: Math.round(Math.random() * 3000) } }
          : e,
      );
      counters.sent++;
      socket.send(
        JSON.stringify({
          type: 'schema_layout_update',
          projectId,
          userId: editor.id,
          layout: { elements, version: layout.version },
          save: false,
          timestamp: now(),
        }),
      );
    };
    socket.on('open', () => socket.send(JSON.stringify({ type: 'join_schema_room', projectId, userId: editor.id })));
    socket.on('message', (data) => {
      const received = now();
      const type = data.subarray(0, 40).toString();
      if (type.startsWith('{"type":"schema_layout_init"')) {
        layout = JSON.parse(data.toString()).layout;
        // Spread the editors' ticks over the period.
        setTimeout(
          () => {
            timer = setInterval(sendUpdate, 1000 / RATE);
          },
          Math.random() * (1000 / RATE),
        );
        resolve({
          stop: () => {
            clearInterval(timer);
            socket.close();
          },
        });
        return;
      }
      const isSaved = type.startsWith('{"type":"schema_layout_saved"');
      if (isSaved || type.startsWith('{"type":"schema_layout_update"')) {
        if (measuring.on) {
          for (const update of updatesOf(data)) {
            if (update.userId === editor.id || update.timestamp === null) continue;
            latencies.push(received - update.timestamp);
            counters.received++;
          }
        }
        if (isSaved) {
          layout = JSON.parse(data.toString()).layout;
          inFlight = false;
          if (due) sendUpdate();
        }
      } else if (type.startsWith('{"type":"error"')) {
        counters.errors++;
        inFlight = false;
      }
    });
    socket.on('error', reject);
  });
}

async function measure(name, urls, seeded) {
  const latencies = [];
  const counters = { sent: 0, received: 0, errors: 0 };
  const measuring = { on: false };
  const editors = await Promise.all(
    seeded.editors.map((editor, i) =>
      runEditor({ url: urls[i % urls.length], editor, projectId: seeded.projectId, latencies, counters, measuring }),
    ),
  );
  await new Promise((r) => setTimeout(r, WARMUP_MS));
  measuring.on = true;
  const sentBefore = counters.sent;
  await new Promise((r) => setTimeout(r, DURATION_MS));
  measuring.on = false;
  const sent = counters.sent - sentBefore;
  for (const editor of editors) editor.stop();
  const sorted = latencies.sort((a, b) => a - b);
  const round = (v) => (v === null ? null : Math.round(v * 10) / 10);
  const result = {
    run: name,
    editors: EDITORS,
    updatesPerSecond: Math.round(sent / (DURATION_MS / 1000)),
    receipts: sorted.length,
    p50Ms: round(percentile(sorted, 50)),
    p99Ms: round(percentile(sorted, 99)),
    maxMs: round(sorted.at(-1) ?? null),
    errors: counters.errors,
  };
  console.log(JSON.stringify(result));
  return result;
}

const results = [];
const runs = values.runs.split(',');
const { buildServer } = await import('../scripts/build.mjs');
await buildServer();
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-bench-room-'));
const children = [];
try {
  if (runs.includes('sqlite')) {
    const node = await startNode(path.join(scratch, 'sqlite'));
    children.push(node.child);
    const url = `http://127.0.0.1:${node.port}`;
    results.push(await measure('one node, SQLite', [url], await seed(url)));
    node.child.kill();
  }
  for (const nodes of [runs.includes('postgres') ? 1 : 0, runs.includes('two-nodes') ? 2 : 0].filter(Boolean)) {
    const name = `basalt_bench_room_${randomBytes(6).toString('hex')}`;
    await pgQuery(adminUrl, `CREATE DATABASE ${name}`);
    const dbUrl = new URL(adminUrl);
    dbUrl.pathname = `/${name}`;
    try {
      const started = [];
      for (let i = 0; i < nodes; i++) {
        const node = await startNode(path.join(scratch, `${name}-${i}`), dbUrl.toString());
        children.push(node.child);
        started.push(node);
      }
      const urls = started.map((node) => `http://127.0.0.1:${node.port}`);
      const label = nodes === 1 ? 'one node, PostgreSQL' : 'two nodes, one PostgreSQL';
      results.push(await measure(label, urls, await seed(urls[0])));
      for (const node of started) node.child.kill();
      await new Promise((r) => setTimeout(r, 500));
    } finally {
      await pgQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
  }
} finally {
  for (const child of children) if (child.exitCode === null) child.kill();
  fs.rmSync(scratch, { recursive: true, force: true });
}
fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
fs.writeFileSync(
  path.join(root, 'bench/results/room.json'),
  `${JSON.stringify({ date: new Date().toISOString(), rate: RATE, durationSeconds: DURATION_MS / 1000, results }, null, 2)}\n`,
);

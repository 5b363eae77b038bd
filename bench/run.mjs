// `npm run bench`: one run measures Basalt (SQLite) and the bare baseline side by side on loopback,
// and reports Basalt/baseline ratios. Absolute numbers swing on these shared 2-core machines (the load
// generator, the server and the baseline share the cores); the ratios, taken in one run, are the result.
// Usage: node bench/run.mjs [--duration 5] [--warmup 1] [--connections 10] [--baseline-only]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    connections: { type: 'string', default: '10' },
    'baseline-only': { type: 'boolean', default: false },
  },
});
const DURATION = Number(values.duration);
// Every scenario, the baseline's included, first runs unmeasured for WARMUP seconds: the results are steady
// state, not the JIT compiling a code path for the first time (Basalt's create path is first used there).
const WARMUP = Number(values.warmup);
const CONNECTIONS = Number(values.connections);
const ROWS = 10_000;
const TARGETS = { read: 0.5, create: 0.35, p99: 2 };

/** startProcess runs a server and resolves with its port once it prints its listening line. */
function startProcess(args, env, pattern) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk) => {
      seen += chunk;
      const match = pattern.exec(seen);
      if (match) {
        child.stdout.off('data', onData);
        child.stdout.resume(); // keep draining the log so the server never blocks on stdout
        resolve({ child, port: Number(match[1]) });
      }
    };
    child.stdout.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${args[0]} exited with ${code} before listening:\n${seen}`)));
  });
}

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

/** seedBasalt registers an account, creates the items table with 10,000 rows and an API key. */
async function seedBasalt(base) {
  const { anonKey } = await http(base, 'GET', '/api/config');
  const { session } = await http(base, 'POST', '/api/auth/register', {
    json: { username: 'bench', email: 'bench@example.com', password: 'Bench!pass1' },
  });
  const auth = { authorization: `Bearer ${session.access_token}` };
  await http(base, 'POST', '/api/tables', {
    headers: auth,
    json: {
      name: 'items',
      description: 'benchmark rows',
      schema: { name: { type: 'text', required: true }, qty: { type: 'number' }, done: { type: 'boolean' } },
    },
  });
  const rest = { ...auth, apikey: anonKey };
  for (let start = 1; start <= ROWS; start += 1000) {
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      name: `item ${start + i}`,
      qty: (start + i) % 1000,
      done: (start + i) % 2 === 1,
    }));
    await http(base, 'POST', '/rest/v1/items', { headers: rest, json: rows });
  }
  const { key } = await http(base, 'POST', '/api/keys', { headers: auth, json: { name: 'bench' } });
  return { rest, apiKey: { authorization: `Bearer ${key}` } };
}

const randomId = () => 1 + Math.floor(Math.random() * ROWS);
const newRow = () =>
  JSON.stringify({ name: `new ${Math.random()}`, qty: Math.floor(Math.random() * 1000), done: false });

// Operations are measured one at a time on every target (baseline, then Basalt's two APIs): every list and get
// runs before any create has grown a table, so each target counts the same 10,000 rows, and the baseline and
// Basalt are measured close together in time on this shared machine.
const OPERATIONS = ['list', 'get', 'create'];

function scenarios(baseline, basalt) {
  return allScenarios(baseline, basalt).sort((a, b) => OPERATIONS.indexOf(a.op) - OPERATIONS.indexOf(b.op));
}

function allScenarios(baseline, basalt) {
  const list = [
    { op: 'list', target: 'baseline', url: `${baseline}/items?qty_gt=500&limit=20`, method: 'GET' },
    { op: 'get', target: 'baseline', url: baseline, method: 'GET', path: () => `/items/${randomId()}` },
    {
      op: 'create',
      target: 'baseline',
      url: `${baseline}/items`,
      method: 'POST',
      body: newRow,
      headers: { 'content-type': 'application/json' },
    },
  ];
  if (!basalt) return list;
  const { url, rest, apiKey } = basalt;
  const json = { 'content-type': 'application/json' };
  return list.concat([
    {
      op: 'list',
      target: 'api/table',
      url: `${url}/api/table/items?qty=gt.500&orderBy=id&order=desc&limit=20`,
      method: 'GET',
      headers: apiKey,
    },
    {
      op: 'get',
      target: 'api/table',
      url,
      method: 'GET',
      path: () => `/api/table/items/${randomId()}`,
      headers: apiKey,
    },
    {
      op: 'create',
      target: 'api/table',
      url: `${url}/api/table/items`,
      method: 'POST',
      body: newRow,
      headers: { ...apiKey, ...json },
    },
    {
      op: 'list',
      target: 'rest/v1',
      url: `${url}/rest/v1/items?select=*&qty=gt.500&order=id.desc&limit=20`,
      method: 'GET',
      headers: { ...rest, prefer: 'count=exact' },
    },
    {
      op: 'get',
      target: 'rest/v1',
      url,
      method: 'GET',
      path: () => `/rest/v1/items?select=*&id=eq.${randomId()}`,
      headers: { ...rest, accept: 'application/vnd.pgrst.object+json' },
    },
    {
      op: 'create',
      target: 'rest/v1',
      url: `${url}/rest/v1/items`,
      method: 'POST',
      body: newRow,
      headers: { ...rest, ...json, prefer: 'return=representation' },
    },
  ]);
}

function load(scenario, duration) {
  return autocannon({
    url: scenario.url,
    connections: CONNECTIONS,
    duration,
    method: scenario.method,
    headers: scenario.headers,
    requests: [
      {
        method: scenario.method,
        setupRequest: (req) => ({
          ...req,
          ...(scenario.path ? { path: scenario.path() } : {}),
          ...(scenario.body ? { body: scenario.body() } : {}),
        }),
      },
    ],
  });
}

async function measure(scenario) {
  if (WARMUP > 0) await load(scenario, WARMUP);
  const result = await load(scenario, DURATION);
  const ok = result['2xx'];
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(
      `${scenario.target} ${scenario.op}: ${result.non2xx} non-2xx answers and ${result.errors} errors of ${ok + result.non2xx}`,
    );
  }
  return {
    op: scenario.op,
    target: scenario.target,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-bench-'));
  const children = [];
  try {
    const baselineDir = path.join(work, 'baseline');
    fs.mkdirSync(baselineDir);
    const baseline = await startProcess(['bench/baseline-server.mjs', '0', baselineDir], {}, /listening (\d+)/);
    children.push(baseline.child);
    let basalt = null;
    if (!values['baseline-only']) {
      const { buildServer } = await import('../scripts/build.mjs');
      await buildServer();
      const server = await startProcess(
        ['packages/server/dist/main.js', 'serve', '--port', '0'],
        {
          BASALT_DATA_DIR: path.join(work, 'basalt'),
          DATABASE_URL: '',
          LOG_LEVEL: 'info',
          AUTH_RATE_LIMIT: '1000',
          API_RATE_LIMIT: '100000000',
        },
        /Server listening at http:\/\/127\.0\.0\.1:(\d+)/,
      );
      children.push(server.child);
      const url = `http://127.0.0.1:${server.port}`;
      basalt = { url, ...(await seedBasalt(url)) };
    }
    const results = [];
    for (const scenario of scenarios(`http://127.0.0.1:${baseline.port}`, basalt)) {
      const r = await measure(scenario);
      results.push(r);
      console.log(
        `${r.target.padEnd(10)} ${r.op.padEnd(7)} ${String(r.requestsPerSecond).padStart(7)} req/s   p50 ${r.p50} ms   p99 ${r.p99} ms`,
      );
    }
    const report = summarize(results);
    fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
    fs.writeFileSync(path.join(root, 'bench/results/latest.json'), `${JSON.stringify(report, null, 2)}\n`);
    console.log('\nBasalt / baseline:');
    for (const r of report.ratios) {
      const mark = r.meetsTargets ? 'ok' : 'BELOW TARGET';
      console.log(
        `${r.target.padEnd(10)} ${r.op.padEnd(7)} throughput ×${r.throughput.toFixed(2)}   p99 ×${r.p99.toFixed(2)}   ${mark}`,
      );
    }
    console.log('\nWrote bench/results/latest.json');
  } finally {
    for (const child of children) child.kill('SIGTERM');
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function summarize(results) {
  const base = Object.fromEntries(results.filter((r) => r.target === 'baseline').map((r) => [r.op, r]));
  const ratios = results
    .filter((r) => r.target !== 'baseline')
    .map((r) => {
      const b = base[r.op];
      const throughput = r.requestsPerSecond / b.requestsPerSecond;
      const p99 = r.p99 / Math.max(b.p99, 1);
      const minThroughput = r.op === 'create' ? TARGETS.create : TARGETS.read;
      return {
        target: r.target,
        op: r.op,
        throughput,
        p99,
        meetsTargets: throughput >= minThroughput && p99 <= TARGETS.p99,
      };
    });
  return {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, node: process.version },
    settings: { durationSeconds: DURATION, warmupSeconds: WARMUP, connections: CONNECTIONS, rows: ROWS },
    targets: TARGETS,
    results,
    ratios,
  };
}

await main();

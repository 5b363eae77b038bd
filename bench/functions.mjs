// `npm run bench:functions`: edge functions on real Deno (docs/functions.md "Speed"). One run measures:
//   - cold start: a new version deployed, then its first call (Deno starts, loads the bundle, answers), p50/p99;
//   - warm calls of a hello function through Basalt (/api/edge/hello: routing, the runtime's socket, the recorder)
//     against the same handler under a bare `deno run` with Deno.serve, both loaded by autocannon on loopback in
//     the same run, and the ratios: targets ≥ 0.7× the bare requests/s and p99 ≤ 2× the bare p99;
//   - a bare Node.js proxy in front of the same bare Deno (bench/functions-proxy.mjs): the ceiling of any design
//     with a Node.js process in the call's path;
//   - for reference, Basalt's cheapest route (GET /api/health, no database) in the same run: what any request
//     through Basalt's HTTP stack costs on this machine, before a function is involved;
//   - on Linux, the CPU time Basalt's process and the function's Deno process spend per request (from /proc), which
//     the machine's other load does not skew as it skews requests/s.
// Absolute numbers swing on these shared 2-core machines (autocannon, Basalt, Deno and the bare Deno share them);
// the ratios, taken side by side, are the result.
// Usage: node bench/functions.mjs [--duration 10] [--warmup 3] [--connections 10] [--cold 20]
import { execSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { root, startBasalt, startProcess } from './setup.mjs';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    cold: { type: 'string', default: '20' },
  },
});
const DURATION = Number(values.duration);
const WARMUP = Number(values.warmup);
const CONNECTIONS = Number(values.connections);
const COLD_RUNS = Number(values.cold);
const TARGETS = { throughput: 0.7, p99: 2 };

// The same handler in both: Basalt runs it as a function, the bare Deno serves it on a port.
const HANDLER = `async (req) => {
  const { name } = await req.json().catch(() => ({ name: 'world' }));
  return new Response(JSON.stringify({ message: \`Hello \${name}!\` }), {
    headers: { 'Content-Type': 'application/json' },
  });
}`;

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-bench-functions-'));
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

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

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function startBareDeno() {
  const { createRequire } = await import('node:module');
  const require = createRequire(path.join(root, 'packages/server/package.json'));
  const deno = path.join(path.dirname(require.resolve(`@deno/linux-${os.arch()}-glibc/package.json`)), 'deno');
  const port = await freePort();
  const file = path.join(work, 'bare.ts');
  fs.writeFileSync(file, `Deno.serve({ port: ${port}, hostname: '127.0.0.1', onListen() {} }, ${HANDLER});\n`);
  const child = spawn(
    deno,
    ['run', '--no-prompt', '--no-remote', '--no-config', `--allow-net=127.0.0.1:${port}`, file],
    {
      env: { DENO_DIR: path.join(work, 'deno'), DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
      stdio: 'ignore',
    },
  );
  for (let i = 0; i < 200; i++) {
    try {
      await fetch(`http://127.0.0.1:${port}/`);
      return { child, url: `http://127.0.0.1:${port}/` };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  throw new Error('the bare Deno did not start');
}

// CPU time of a process so far, in ms (Linux /proc; null elsewhere).
function cpuMsOf(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

function load(url, duration) {
  return autocannon({ url, connections: CONNECTIONS, duration, method: 'GET' });
}

async function measure(name, url, pids = {}) {
  await load(url, WARMUP);
  const before = Object.fromEntries(Object.entries(pids).map(([key, pid]) => [key, cpuMsOf(pid)]));
  const result = await load(url, DURATION);
  const cpuMicrosPerRequest = {};
  for (const [key, pid] of Object.entries(pids)) {
    const after = cpuMsOf(pid);
    if (after !== null && before[key] !== null) {
      cpuMicrosPerRequest[key] = Math.round(((after - before[key]) * 1000) / Math.max(1, result.requests.total));
    }
  }
  const summary = {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.non2xx,
    cpuMicrosPerRequest,
  };
  console.log(
    `${name.padEnd(26)} ${String(summary.requestsPerSecond).padStart(7)} req/s   p50 ${summary.p50Ms} ms   p99 ${summary.p99Ms} ms   errors ${summary.errors}${Object.entries(
      cpuMicrosPerRequest,
    )
      .map(([key, micros]) => `   ${key} ${micros} µs CPU/req`)
      .join('')}`,
  );
  return summary;
}

const basalt = await startBasalt(path.join(work, 'data'));
const base = `http://127.0.0.1:${basalt.port}`;
let bare = null;
let proxy = null;
try {
  const { session } = await http(base, 'POST', '/api/auth/register', {
    json: { username: 'bench', email: 'bench@example.com', password: 'Bench!pass1' },
  });
  const auth = { authorization: `Bearer ${session.access_token}` };
  const fn = await http(base, 'POST', '/api/edge-functions', {
    headers: auth,
    json: { name: 'hello', code: `Deno.serve(${HANDLER});\n`, verifyJwt: false },
  });

  // Cold starts: each deploy makes a new version; its first call starts a new Deno process.
  const cold = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    await http(base, 'PATCH', `/api/edge-functions/${fn.id}`, {
      headers: auth,
      json: { code: `Deno.serve(${HANDLER});\n// run ${i}\n` },
    });
    await http(base, 'POST', `/api/edge-functions/${fn.id}/deploy`, { headers: auth });
    const started = performance.now();
    const res = await fetch(`${base}/api/edge/hello`);
    await res.text();
    if (!res.ok) throw new Error(`cold call ${i} answered ${res.status}`);
    cold.push(performance.now() - started);
  }
  // The first sample also bundled the vendored supabase-js and started the runtime: reported apart.
  const first = cold.shift();
  cold.sort((a, b) => a - b);
  const coldStart = {
    firstCallMs: Math.round(first),
    p50Ms: Math.round(percentile(cold, 50)),
    p99Ms: Math.round(percentile(cold, 99)),
    samples: cold.length,
  };
  console.log(
    `cold start (${coldStart.samples} deploys)   p50 ${coldStart.p50Ms} ms   p99 ${coldStart.p99Ms} ms   (first call after server start: ${coldStart.firstCallMs} ms)`,
  );

  bare = await startBareDeno();
  const bareResult = await measure('bare deno run', bare.url, { deno: bare.child.pid });
  proxy = await startProcess(['bench/functions-proxy.mjs', bare.url], {
    pattern: /listening (\d+)/,
    logFile: path.join(work, 'proxy.log'),
  });
  const proxyResult = await measure('bare Node proxy → bare deno', `http://127.0.0.1:${proxy.port}/`, {
    node: proxy.child.pid,
    deno: bare.child.pid,
  });
  const functionPid = (() => {
    try {
      return Number(execSync(`pgrep -P ${basalt.child.pid} deno`).toString().trim().split('\n')[0]);
    } catch {
      return null;
    }
  })();
  const basaltResult = await measure('Basalt /api/edge/hello', `${base}/api/edge/hello`, {
    basalt: basalt.child.pid,
    ...(functionPid ? { deno: functionPid } : {}),
  });
  const floor = await measure('Basalt GET /api/health', `${base}/api/health`, { basalt: basalt.child.pid });
  const throughput = Math.round((basaltResult.requestsPerSecond / bareResult.requestsPerSecond) * 100) / 100;
  const p99 = Math.round((basaltResult.p99Ms / Math.max(1, bareResult.p99Ms)) * 100) / 100;
  const met = throughput >= TARGETS.throughput && p99 <= TARGETS.p99;
  console.log(
    `a bare Node proxy reaches ${(proxyResult.requestsPerSecond / bareResult.requestsPerSecond).toFixed(2)}× the bare requests/s; Basalt ${(basaltResult.requestsPerSecond / proxyResult.requestsPerSecond).toFixed(2)}× the proxy's`,
  );
  console.log(
    `ratios: ${throughput}× the bare requests/s (target ≥ ${TARGETS.throughput}), p99 ${p99}× (target ≤ ${TARGETS.p99}) — ${met ? 'met' : 'NOT met'}`,
  );
  const { version: denoVersion } = JSON.parse(
    fs.readFileSync(path.join(root, 'node_modules/deno/package.json'), 'utf8'),
  );
  const report = {
    at: new Date().toISOString(),
    deno: denoVersion,
    connections: CONNECTIONS,
    durationSeconds: DURATION,
    coldStart,
    bare: bareResult,
    bareNodeProxy: proxyResult,
    basalt: basaltResult,
    basaltHealthRoute: floor,
    ratios: {
      throughput,
      p99,
      ofHealthRoute: Math.round((basaltResult.requestsPerSecond / floor.requestsPerSecond) * 100) / 100,
      bareNodeProxyOfBare: Math.round((proxyResult.requestsPerSecond / bareResult.requestsPerSecond) * 100) / 100,
      ofBareNodeProxy: Math.round((basaltResult.requestsPerSecond / proxyResult.requestsPerSecond) * 100) / 100,
    },
    targets: TARGETS,
    met,
  };
  fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  fs.writeFileSync(path.join(root, 'bench/results/functions-latest.json'), `${JSON.stringify(report, null, 2)}\n`);
} finally {
  bare?.child.kill();
  proxy?.child.kill();
  basalt.child.kill();
  await new Promise((resolve) => basalt.child.once('exit', resolve));
  fs.rmSync(work, { recursive: true, force: true });
}

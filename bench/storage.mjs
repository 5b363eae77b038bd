// `npm run bench:storage`: file storage's throughput against a bare node:http + fs stream server in the same run
// (bench/storage-baseline.mjs). Starts Basalt on SQLite storing on disk, signs an account up, creates a bucket,
// then measures for both servers:
//   - upload and download of 1 MB objects (--count of them, one at a time) and of one --big-mb object (100 MB);
//   - 10 clients streaming a --big-mb object each at once, with the server's peak resident memory over the run
//     (target: within 50 MB of its memory before the run);
//   - 10 KB downloads per second under --connections connections for --duration seconds (autocannon).
// Targets (issue "File storage"): ≥ 0.8× the baseline's throughput, ≥ 0.6× its small-object requests/s.
// Each measure also gives the server's CPU time (user + system, from /proc) per request or per MB: on a machine
// shared with other work, throughput moves with the load while the CPU a request costs moves much less.
// --backend s3 stores Basalt's objects in s3rver (bench/storage-s3.mjs, a process of its own, as the tests use it)
// instead of on disk; the baseline stays the bare node:http + fs server, and the s3rver's CPU is shown apart.
// Usage: node bench/storage.mjs [--count 50] [--big-mb 100] [--duration 10] [--connections 16] [--backend disk|s3]
//        [--cpu-prof DIR]
// (--cpu-prof writes Basalt's CPU profile of the whole run into DIR, for Chrome DevTools or bench/profile.mjs;
// --bundle FILE runs another build of the server, such as an earlier commit's, for a before/after comparison.)
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { startProcess } from './setup.mjs';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '50' },
    'big-mb': { type: 'string', default: '100' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
    'cpu-prof': { type: 'string' },
    bundle: { type: 'string' },
    backend: { type: 'string', default: 'disk' },
  },
});
const COUNT = Number(values.count);
const BIG = Number(values['big-mb']) * 1024 * 1024;
const DURATION = Number(values.duration);
const CONNECTIONS = Number(values.connections);
const S3 = values.backend === 's3';
if (!['disk', 's3'].includes(values.backend)) throw new Error('--backend is disk or s3');

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-bench-storage-'));
const { buildServer } = await import('../scripts/build.mjs');
if (!values.bundle) await buildServer();
const s3 = S3
  ? await startProcess(['bench/storage-s3.mjs', path.join(work, 's3')], {
      logFile: path.join(work, 's3-stdout.log'),
      pattern: /S3 listening at http:\/\/127\.0\.0\.1:(\d+)/,
    })
  : null;
const s3Env = s3
  ? {
      STORAGE_S3_BUCKET: 'basalt',
      STORAGE_S3_ENDPOINT: `http://127.0.0.1:${s3.port}`,
      STORAGE_S3_ACCESS_KEY_ID: 'S3RVER',
      STORAGE_S3_SECRET_ACCESS_KEY: 'S3RVER',
    }
  : {};
const basalt = await startProcess([values.bundle ?? 'packages/server/dist/main.js', 'serve', '--port', '0'], {
  logFile: path.join(work, 'basalt-stdout.log'),
  env: {
    BASALT_DATA_DIR: path.join(work, 'data'),
    DATABASE_URL: '',
    LOG_LEVEL: 'info',
    AUTH_RATE_LIMIT: '1000',
    STORAGE_MAX_FILE_SIZE: String(BIG + 1024),
    ...s3Env,
  },
  pattern: /Server listening at http:\/\/127\.0\.0\.1:(\d+)/,
  nodeOptions: values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values['cpu-prof'])}`] : [],
});
const baseline = await startProcess(['bench/storage-baseline.mjs', path.join(work, 'baseline')], {
  logFile: path.join(work, 'baseline-stdout.log'),
  pattern: /Baseline listening at http:\/\/127\.0\.0\.1:(\d+)/,
});
const basaltUrl = `http://127.0.0.1:${basalt.port}`;
const baselineUrl = `http://127.0.0.1:${baseline.port}`;

async function json(method, url, headers, body) {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

const { anonKey } = await json('GET', `${basaltUrl}/api/config`, {});
const signUp = await json(
  'POST',
  `${basaltUrl}/auth/v1/signup`,
  { apikey: anonKey },
  {
    email: 'bench@example.com',
    password: 'Bench-Passw0rd!',
    data: { username: 'bench' },
  },
);
const auth = { apikey: anonKey, authorization: `Bearer ${signUp.access_token}` };
await json('POST', `${basaltUrl}/storage/v1/bucket`, auth, { name: 'bench' });

// The same two operations on each server: its URL of an object, and the headers it wants.
const targets = {
  basalt: { url: (name) => `${basaltUrl}/storage/v1/object/bench/${name}`, headers: auth, put: 'POST' },
  baseline: { url: (name) => `${baselineUrl}/f/${name}`, headers: {}, put: 'PUT' },
};

async function upload(target, name, body) {
  const res = await fetch(target.url(name), {
    method: target.put,
    headers: { ...target.headers, 'content-type': 'application/octet-stream', 'x-upsert': 'true' },
    body,
    duplex: 'half',
  });
  await res.text();
  if (!res.ok) throw new Error(`upload ${name} → ${res.status}`);
}

async function download(target, name) {
  const res = await fetch(target.url(name), { headers: target.headers });
  let bytes = 0;
  for await (const chunk of res.body) bytes += chunk.length;
  if (!res.ok) throw new Error(`download ${name} → ${res.status}`);
  return bytes;
}

// A body of `size` random bytes, streamed in 64 KB chunks (never held whole).
function bigBody(size) {
  const chunk = crypto.randomBytes(64 * 1024);
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= size) return controller.close();
      const part = chunk.subarray(0, Math.min(chunk.length, size - sent));
      sent += part.length;
      controller.enqueue(new Uint8Array(part));
    },
  });
}

const mbPerSecond = (bytes, ms) => bytes / 1024 / 1024 / (ms / 1000);

function rssOf(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** cpuMs is a process's user + system CPU time so far, in ms. */
function cpuMs(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // After the command: state is field 3, so utime (14) and stime (15) are at 11 and 12 here (in 1/100 s).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function measure(name, target, pid, s3Pid = null) {
  const one = crypto.randomBytes(1024 * 1024);
  const cpu = {};
  // s3Cpu: the S3 service's CPU over the same steps (Basalt on --backend s3 only).
  const s3Cpu = {};
  // timed runs one step, answers its MB/s, and keeps the server's CPU ms per `units` under `key`.
  const timed = async (key, units, bytes, step) => {
    const cpuBefore = cpuMs(pid);
    const s3Before = s3Pid ? cpuMs(s3Pid) : 0;
    const started = performance.now();
    await step();
    const ms = performance.now() - started;
    cpu[key] = (cpuMs(pid) - cpuBefore) / units;
    if (s3Pid) s3Cpu[key] = (cpuMs(s3Pid) - s3Before) / units;
    return mbPerSecond(bytes, ms);
  };
  const up1 = await timed('up1', COUNT, COUNT * one.length, async () => {
    for (let i = 0; i < COUNT; i++) await upload(target, `one-${i}.bin`, one);
  });
  const down1 = await timed('down1', COUNT, COUNT * one.length, async () => {
    for (let i = 0; i < COUNT; i++) await download(target, `one-${i}.bin`);
  });
  const mb = BIG / 1024 / 1024;
  const upBig = await timed('upBig', mb, BIG, () => upload(target, 'big.bin', bigBody(BIG)));
  const downBig = await timed('downBig', mb, BIG, () => download(target, 'big.bin'));

  const before = rssOf(pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
  }, 50);
  const parallel = await timed('parallel', 20 * mb, 20 * BIG, async () => {
    await Promise.all(Array.from({ length: 10 }, (_, i) => upload(target, `par-${i}.bin`, bigBody(BIG))));
    await Promise.all(Array.from({ length: 10 }, (_, i) => download(target, `par-${i}.bin`)));
  });
  clearInterval(sampler);

  await upload(target, 'small.bin', crypto.randomBytes(10 * 1024));
  const smallCpuBefore = cpuMs(pid);
  const smallS3Before = s3Pid ? cpuMs(s3Pid) : 0;
  const small = await autocannon({
    url: target.url('small.bin'),
    headers: target.headers,
    connections: CONNECTIONS,
    duration: DURATION,
  });
  cpu.smallPerSecond = (cpuMs(pid) - smallCpuBefore) / Math.max(1, small.requests.total);
  if (s3Pid) s3Cpu.smallPerSecond = (cpuMs(s3Pid) - smallS3Before) / Math.max(1, small.requests.total);
  return {
    name,
    up1,
    down1,
    upBig,
    downBig,
    parallel,
    memoryGrowthMb: peak - before,
    smallPerSecond: small.requests.average,
    cpu,
    s3Cpu,
  };
}

const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
const loadBefore = loadAverage();
try {
  const base = await measure('baseline', targets.baseline, baseline.child.pid);
  const ours = await measure('basalt', targets.basalt, basalt.child.pid, s3?.child.pid);
  const cpuOf = (cpu, key, per) =>
    per === 'req' ? `${(cpu[key] * 1000).toFixed(0)} µs/req` : `${cpu[key].toFixed(1)} ms/MB`;
  // On S3, one more column: the s3rver's CPU for the same work (Basalt's own column leaves it out).
  const s3Column = (key, per) => (S3 ? ` ${cpuOf(ours.s3Cpu, key, per)} |` : '');
  const row = (label, key, unit, per = 'MB') =>
    `| ${label} | ${base[key].toFixed(1)} ${unit} | ${ours[key].toFixed(1)} ${unit} | ${(ours[key] / base[key]).toFixed(2)}× | ${cpuOf(base.cpu, key, per)} | ${cpuOf(ours.cpu, key, per)} | ${(base.cpu[key] / ours.cpu[key]).toFixed(2)}× |${s3Column(key, per)}`;
  const lines = [
    `storage bench: ${COUNT} × 1 MB, ${BIG / 1024 / 1024} MB objects, 10 clients × ${BIG / 1024 / 1024} MB, 10 KB for ${DURATION} s × ${CONNECTIONS} connections; Basalt stores on ${S3 ? 'S3 (s3rver)' : 'disk'}, the bare server on disk`,
    `load average ${loadBefore} before, ${loadAverage()} after, on ${os.cpus().length} CPUs`,
    `| measure | bare node:http + fs | Basalt | ratio | bare CPU | Basalt CPU | CPU ratio (bare/Basalt) |${S3 ? ' s3rver CPU |' : ''}`,
    `| --- | --- | --- | --- | --- | --- | --- |${S3 ? ' --- |' : ''}`,
    row('upload 1 MB objects', 'up1', 'MB/s', 'req'),
    row('download 1 MB objects', 'down1', 'MB/s', 'req'),
    row(`upload one ${BIG / 1024 / 1024} MB object`, 'upBig', 'MB/s'),
    row(`download one ${BIG / 1024 / 1024} MB object`, 'downBig', 'MB/s'),
    row('10 clients up then down', 'parallel', 'MB/s'),
    row('10 KB downloads', 'smallPerSecond', 'req/s', 'req'),
    `| server memory growth, 10 clients | ${base.memoryGrowthMb.toFixed(0)} MB | ${ours.memoryGrowthMb.toFixed(0)} MB | | | | |${S3 ? ' |' : ''}`,
  ];
  console.log(lines.join('\n'));
  fs.mkdirSync(path.join('bench', 'results'), { recursive: true });
  const results = path.join('bench', 'results', S3 ? 'storage-s3.json' : 'storage.json');
  fs.writeFileSync(results, JSON.stringify({ base, ours }, null, 2));
} finally {
  basalt.child.kill();
  baseline.child.kill();
  s3?.child.kill();
  fs.rmSync(work, { recursive: true, force: true });
}

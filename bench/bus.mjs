// `npm run bench:bus`: the event bus between two nodes on one PostgreSQL database (docs/operations.md "Events across
// nodes"). Two processes run the server's bus over LISTEN/NOTIFY (bench/bus-node.mjs) on a database this script
// creates and drops. Node A publishes, node B counts; for each run it reports events/s from A's first publish to
// B's last receipt, and the publish→receive latency of every event (p50/p99), from the monotonic clock that both
// processes share. Burst runs publish as fast as A can (many events per turn of the event loop, so they batch);
// paced runs publish one event at a time, the latency a lone change sees. The 10 KB events go through outbox rows.
// Absolute numbers swing on a shared machine. PostgreSQL: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else local.
// Usage: node bench/bus.mjs [--count 20000]
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { register } from 'tsx/esm/api';

const { values } = parseArgs({ options: { count: { type: 'string', default: '20000' } } });
const COUNT = Number(values.count);
const RUN_TIMEOUT_MS = 120_000;
const adminUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const RUNS = [
  { name: 'warm-up (not reported)', count: 2000, bytes: 100, burst: 100, warmup: true },
  { name: 'burst, 100 B events', count: COUNT, bytes: 100, burst: 100 },
  { name: 'burst, 10 KB events (outbox)', count: Math.round(COUNT / 10), bytes: 10_000, burst: 10 },
  { name: 'paced 1/ms, 100 B events', count: 2000, bytes: 100, intervalMs: 1 },
  { name: 'paced 1/2ms, 10 KB events (outbox)', count: 500, bytes: 10_000, intervalMs: 2 },
];

async function query(url, text) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

async function createDatabase() {
  const name = `basalt_bench_bus_${randomBytes(6).toString('hex')}`;
  await query(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // The server's migrations, in TypeScript, make event_outbox (tsx's loader is unregistered once done).
  const unregister = register();
  const { migrateToLatest, openDatabase } = await import('../packages/server/src/db/database.ts');
  const db = openDatabase({ databaseUrl: url.toString(), dataDir: os.tmpdir() });
  try {
    await migrateToLatest(db);
  } finally {
    await db.close();
    await unregister();
  }
  return { name, url: url.toString() };
}

/** startNode forks a bus node and returns a way to wait for its next message of a type. */
function startNode(url) {
  const child = fork(new URL('./bus-node.mjs', import.meta.url), [url], { execArgv: ['--import', 'tsx'] });
  const waiting = new Map();
  const inbox = [];
  child.on('message', (message) => {
    const waiter = waiting.get(message.type);
    if (!waiter) return inbox.push(message);
    waiting.delete(message.type);
    waiter.resolve(message);
  });
  child.once('exit', (code) => {
    for (const [type, waiter] of waiting) waiter.reject(new Error(`a bus node exited (${code}) before its '${type}'`));
    waiting.clear();
  });
  return {
    child,
    send: (message) => child.send(message),
    next(type) {
      const found = inbox.findIndex((m) => m.type === type);
      if (found >= 0) return Promise.resolve(inbox.splice(found, 1)[0]);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no '${type}' from a bus node`)), RUN_TIMEOUT_MS);
        const settle = (fn) => (value) => {
          clearTimeout(timer);
          fn(value);
        };
        waiting.set(type, { resolve: settle(resolve), reject: settle(reject) });
      });
    },
  };
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
const ms = (micros) => Math.round(micros / 10) / 100;

const outboxRows = async (url) => (await query(url, 'SELECT count(*)::int AS n FROM event_outbox'))[0].n;

async function measure(a, b, run, index) {
  b.send({ cmd: 'receive', run: index, count: run.count });
  await b.next('receiving');
  a.send({ cmd: 'publish', run: index, ...run });
  const [published, received] = await Promise.all([a.next('published'), b.next('received')]);
  const latencies = received.latencies.sort((x, y) => x - y);
  const seconds = (received.lastAt - published.startedAt) / 1e6;
  return {
    run: run.name,
    events: run.count,
    eventBytes: run.bytes,
    eventsPerSecond: Math.round(run.count / seconds),
    p50ms: ms(percentile(latencies, 50)),
    p99ms: ms(percentile(latencies, 99)),
    maxMs: ms(latencies.at(-1)),
    outOfOrder: received.outOfOrder,
  };
}

async function main() {
  const database = await createDatabase();
  const nodes = [];
  try {
    const a = startNode(database.url);
    const b = startNode(database.url);
    nodes.push(a, b);
    await Promise.all([a.next('ready'), b.next('ready')]);
    const results = [];
    for (const [index, run] of RUNS.entries()) {
      const rowsBefore = await outboxRows(database.url);
      const result = await measure(a, b, run, index);
      if (result.outOfOrder > 0) throw new Error(`${run.name}: ${result.outOfOrder} events arrived out of order`);
      if (!run.warmup) results.push({ ...result, outboxRows: (await outboxRows(database.url)) - rowsBefore });
    }
    for (const node of nodes) node.send({ cmd: 'close' });
    const closed = await Promise.all(nodes.map((node) => node.next('closed')));
    const errors = closed.flatMap((c) => c.errors);
    console.table(results.map(({ outOfOrder, ...row }) => row));
    console.log(`Errors reported by the nodes: ${errors.length}`);
    const [{ server_version: postgres }] = await query(adminUrl, 'SHOW server_version');
    const report = {
      date: new Date().toISOString(),
      machine: { cpus: os.cpus().length, node: process.version, postgres },
      runs: RUNS.filter((run) => !run.warmup),
      results,
      errors,
    };
    fs.mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
    fs.writeFileSync(new URL('./results/bus.json', import.meta.url), `${JSON.stringify(report, null, 2)}\n`);
    console.log('Written to bench/results/bus.json');
  } finally {
    for (const node of nodes) if (node.child.exitCode === null) node.child.kill();
    await Promise.all(
      nodes.map((node) => (node.child.exitCode === null ? new Promise((r) => node.child.once('exit', r)) : null)),
    );
    await query(adminUrl, `DROP DATABASE IF EXISTS ${database.name} WITH (FORCE)`);
  }
}

await main();

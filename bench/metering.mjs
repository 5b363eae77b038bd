// `npm run bench:metering`: what metering costs the record APIs — bench/on-off.mjs's paired method with metering on
// and METERING=off. Both servers of the measured pair sell the same free plan without an API-call cap, so that
// nothing is refused. Results go to bench/results/metering.json. Target: on ÷ off ≥ 0.97.
// Usage: node bench/metering.mjs [--rounds 15] [--duration 1] [--warmup 2] [--connections 10] [--no-pin]
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { register } from 'tsx/esm/api';
import { onOffOptions, runOnOff, writeResults } from './on-off.mjs';

// The free plan without an API-call cap: the quota is still checked on every call, never reached.
const PLANS = JSON.stringify({ free: { limits: { apiCalls: null, storageMb: null } } });

const results = await runOnOff({
  label: 'metering',
  // Get, list and create through both record APIs, as the account's key and as its session (/api/table's list
  // always counts).
  picked: [
    ['get', 'api/table'],
    ['counted', 'api/table'],
    ['get', 'rest/v1'],
    ['list', 'rest/v1'],
    ['create', 'api/table'],
    ['create', 'rest/v1'],
  ],
  envOf: (on) => ({ METERING: on ? 'on' : 'off', BILLING_PLANS: PLANS }),
  target: 0.97,
  options: onOffOptions({ rounds: 15 }),
});

// What the meter itself costs a request, measured alone in this process: one admit() (the quota check and the
// count) for an account whose usage is known, as every request but an account's first pays it.
async function admitNs() {
  const unregister = register();
  const src = (file) => new URL(`../packages/server/src/${file}`, import.meta.url).href;
  const { loadConfig } = await import(src('config.ts'));
  const { migrateToLatest, openDatabase } = await import(src('db/database.ts'));
  const { createUsageMeter } = await import(src('features/billing/usage-meter.ts'));
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-meter-'));
  const config = loadConfig({ BASALT_DATA_DIR: dir, LOG_LEVEL: 'silent', BILLING_PLANS: PLANS });
  const db = openDatabase(config, {});
  await migrateToLatest(db);
  const now = new Date().toISOString();
  await db.kysely
    .insertInto('accounts')
    .values({ id: 'bench', email: 'bench@example.com', created_at: now, updated_at: now })
    .execute();
  const meter = createUsageMeter(db, { plans: config.billing.plans });
  await meter.admit('bench', false);
  const calls = 2_000_000;
  const began = performance.now();
  for (let i = 0; i < calls; i++) meter.admit('bench', i % 3 === 0);
  const ns = ((performance.now() - began) * 1e6) / calls;
  await meter.close();
  await db.close();
  await fs.rm(dir, { recursive: true, force: true });
  await unregister();
  return Math.round(ns);
}
const meterNs = await admitNs();
console.log(`\nthe meter alone: ${meterNs} ns per request (one admit(), measured in this process)`);
await writeResults('metering.json', { ...results, meterNs });

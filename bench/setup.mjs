// What bench/run.mjs and bench/profile.mjs share: starting the servers, seeding Basalt with the benchmark's
// table (10,000 rows of `items` by default, a million with `--rows 1000000`) and its keys, and the scenarios. The
// load itself is load.mjs's.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export { hasWrk, load } from './load.mjs';

/** root is the repository's root. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** ROWS is how many rows the benchmark's table holds before any create, unless a run asks for more. */
export const ROWS = 10_000;

let serverCpus = null;

/**
 * pinCpus puts the servers started from now on and this process (the load generator) on CPUs of their own, as
 * the issue "Speed at scale" measured: the server on one core, the client on the other. Without it they share
 * both cores with each other and whatever else runs, and each run's ratios move by tens of percent.
 */
export function pinCpus({ server, client }) {
  serverCpus = server;
  const pinned = spawnSync('taskset', ['-a', '-p', '-c', client, String(process.pid)], { encoding: 'utf8' });
  if (pinned.status !== 0) throw new Error(`taskset could not pin the load generator: ${pinned.stderr}`);
}

/**
 * startProcess runs a server and resolves with its port once it prints its listening line. Its output goes to
 * a file beside the data (`logFile`), as in a deployment: read through a pipe, the per-request log lines would
 * cost the load generator, which runs in this process, CPU time that the measurement needs.
 */
export function startProcess(args, { env = {}, pattern, logFile, nodeOptions = [] }) {
  const out = fs.openSync(logFile, 'w');
  const command = [process.execPath, ...nodeOptions, ...args];
  // taskset execs the server in its own process: the child's pid is the server's.
  if (serverCpus !== null) command.unshift('taskset', '-c', serverCpus);
  const child = spawn(command[0], command.slice(1), {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', out, 'inherit'],
  });
  fs.closeSync(out);
  return new Promise((resolve, reject) => {
    const poll = setInterval(() => {
      const match = pattern.exec(fs.readFileSync(logFile, 'utf8'));
      if (match) {
        clearInterval(poll);
        child.off('exit', onEarlyExit);
        resolve({ child, port: Number(match[1]) });
      }
    }, 50);
    const onEarlyExit = (code) => {
      clearInterval(poll);
      reject(new Error(`${args[0]} exited with ${code} before listening:\n${fs.readFileSync(logFile, 'utf8')}`));
    };
    child.on('exit', onEarlyExit);
  });
}

/**
 * startBasalt builds the server and starts it with the benchmark's limits: on SQLite in dataDir, or on the
 * PostgreSQL database `databaseUrl` names.
 */
export async function startBasalt(dataDir, nodeOptions = [], { databaseUrl = '', env = {} } = {}) {
  const { buildServer } = await import('../scripts/build.mjs');
  await buildServer();
  return startProcess(['packages/server/dist/main.js', 'serve', '--port', '0'], {
    logFile: path.join(path.dirname(dataDir), 'basalt-stdout.log'),
    env: {
      BASALT_DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'info',
      AUTH_RATE_LIMIT: '1000',
      API_RATE_LIMIT: '100000000',
      // Metering stays on (its cost is part of every API call); no plan's cap cuts a run short, since an instance
      // without Stripe enforces none (QUOTAS).
      ...env,
    },
    pattern: /Server listening at http:\/\/127\.0\.0\.1:(\d+)/,
    nodeOptions,
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

/** END_USERS is how many end users of the account's app own the items, round robin (ROWS / END_USERS each). */
export const END_USERS = 10;

/**
 * seedRowsDirectly fills the items table with `rows` rows in one statement, straight into the database (SQLite's
 * file beside the running server, or PostgreSQL), and sets Basalt's kept row count (table_row_counts) in the
 * same transaction, as a write through Basalt would: row i has qty i % 1000, done i % 2 and the owner
 * `owners[i % owners.length]`, the rows the API seeding writes.
 */
async function seedRowsDirectly({ dataDir, databaseUrl }, tableId, owners, rows) {
  const table = `"t_${tableId}"`;
  // The whole count goes into shard 0 (PostgreSQL keeps 32 per table, SQLite 1: db/row-counts.ts).
  const recount = `UPDATE table_row_counts
    SET row_count = CASE WHEN shard = 0 THEN (SELECT count(*) FROM ${table}) ELSE 0 END, version = version + 1
    WHERE table_id = `;
  if (databaseUrl) {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO ${table} (name, qty, done, owner)
         SELECT 'item ' || i, i % 1000, i % 2 = 1, ($2::text[])[i % ${owners.length} + 1] FROM generate_series(1, $1::int) i`,
        [rows, owners],
      );
      await client.query(`${recount}$1`, [tableId]);
      await client.query('COMMIT');
      // What autovacuum would do soon after such a load: the planner's statistics.
      await client.query(`ANALYZE ${table}`);
    } finally {
      await client.end();
    }
    return;
  }
  const { default: Database } = await import('better-sqlite3');
  const file = new Database(path.join(dataDir, 'basalt.db'));
  try {
    file.pragma('busy_timeout = 10000');
    const owner = owners.map((_, k) => `WHEN ${k} THEN ?`).join(' ');
    file.transaction(() => {
      file
        .prepare(
          `INSERT INTO ${table} (name, qty, done, owner)
           WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ?)
           SELECT 'item ' || i, i % 1000, i % 2, CASE i % ${owners.length} ${owner} END FROM s`,
        )
        .run(rows, ...owners);
      file.prepare(`${recount}?`).run(tableId);
    })();
  } finally {
    file.close();
  }
}

/**
 * seedBasalt registers an account, creates the items table with `rows` rows (through the API, or `direct`ly into
 * the database: seedRowsDirectly) and an API key; it returns the
 * headers of each API: `rest` (apikey + the user's token), `apiKey` (the API key as bearer) and `endUser` (the
 * app's anon key + an end user's token). The items are owned by END_USERS end users of the account's app under
 * `own rows` rules on every operation: the end user reads their own ROWS / END_USERS rows (`endUserId` picks one), the
 * account every row.
 */
export async function seedBasalt(base, { rows = ROWS, direct = null } = {}) {
  const { anonKey } = await http(base, 'GET', '/api/config');
  const { session } = await http(base, 'POST', '/api/auth/register', {
    json: { username: 'bench', email: 'bench@example.com', password: 'Bench!pass1' },
  });
  const auth = { authorization: `Bearer ${session.access_token}` };
  const table = await http(base, 'POST', '/api/tables', {
    headers: auth,
    json: {
      name: 'items',
      description: 'benchmark rows',
      schema: {
        name: { type: 'text', required: true },
        qty: { type: 'number' },
        done: { type: 'boolean' },
        owner: { type: 'text' },
      },
      access: { select: 'own', insert: 'own', update: 'own', delete: 'own', ownerColumn: 'owner' },
    },
  });
  const app = await http(base, 'GET', '/api/app', { headers: auth });
  const endUsers = [];
  for (let i = 0; i < END_USERS; i++) {
    const signedUp = await http(base, 'POST', '/auth/v1/signup', {
      headers: { apikey: app.anonKey },
      json: { email: `user${i}@bench.example`, password: 'Bench!pass1' },
    });
    endUsers.push({ id: signedUp.user.id, token: signedUp.access_token });
  }
  const rest = { ...auth, apikey: anonKey };
  if (direct)
    await seedRowsDirectly(
      direct,
      table.id,
      endUsers.map((u) => u.id),
      rows,
    );
  else {
    for (let start = 1; start <= rows; start += 1000) {
      const batch = Array.from({ length: Math.min(1000, rows - start + 1) }, (_, i) => ({
        name: `item ${start + i}`,
        qty: (start + i) % 1000,
        done: (start + i) % 2 === 1,
        owner: endUsers[(start + i) % END_USERS].id,
      }));
      await http(base, 'POST', '/rest/v1/items', { headers: rest, json: batch });
    }
  }
  // The kept count must be the table's: a seeding that got it wrong would measure nothing.
  const { total } = await http(base, 'GET', `/api/tables/${table.id}/records?limit=1`, { headers: auth });
  if (total !== rows) throw new Error(`seeded ${rows} rows, but Basalt counts ${total}`);
  const { key } = await http(base, 'POST', '/api/keys', { headers: auth, json: { name: 'bench' } });
  const [first] = endUsers;
  const endUser = { apikey: app.anonKey, authorization: `Bearer ${first.token}` };
  // Row i belongs to end user i % END_USERS: the first one's rows are the ids divisible by END_USERS.
  const ownIds = Math.floor(rows / END_USERS);
  const endUserId = () => END_USERS * (1 + Math.floor(Math.random() * ownIds));
  return {
    rest,
    apiKey: { authorization: `Bearer ${key}` },
    endUser,
    endUserId,
    endUserUuid: first.id,
    rows,
    tableId: table.id,
  };
}

const randomIdOf = (rows) => () => 1 + Math.floor(Math.random() * rows);
const newRow = () =>
  JSON.stringify({ name: `new ${Math.random()}`, qty: Math.floor(Math.random() * 1000), done: false });

/**
 * baselineScenarios are the operations on the bare baseline server: a list without its count, the same list
 * with SELECT count(*), a get and a create.
 */
export function baselineScenarios(baseline, rows = ROWS) {
  const randomId = randomIdOf(rows);
  return [
    { op: 'list', target: 'baseline', url: `${baseline}/items?qty_gt=500&limit=20&count=none`, method: 'GET' },
    { op: 'counted', target: 'baseline', url: `${baseline}/items?qty_gt=500&limit=20`, method: 'GET' },
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
}

/**
 * basaltScenarios are the same operations through /api/table (API key; its list always has X-Total-Count, so it
 * has no uncounted list) and /rest/v1 (apikey + token; counted with `Prefer: count=exact`), and the reads of
 * /rest/v1 as an end user under `own rows` (target `rest/v1 user`): the counted list, and gets of their rows; and
 * the owner's counted list of the same rows (target `rest/v1 same rows`: the end user's rule as the owner's
 * filter), which tells what the rule itself costs apart from reading a tenth of the table.
 */
export function basaltScenarios({ url, rest, apiKey, endUser, endUserId, endUserUuid, rows = ROWS }) {
  const randomId = randomIdOf(rows);
  const json = { 'content-type': 'application/json' };
  return [
    {
      op: 'counted',
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
      headers: rest,
    },
    {
      op: 'counted',
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
      op: 'counted',
      target: 'rest/v1 user',
      url: `${url}/rest/v1/items?select=*&qty=gt.500&order=id.desc&limit=20`,
      method: 'GET',
      headers: { ...endUser, prefer: 'count=exact' },
    },
    {
      op: 'counted',
      target: 'rest/v1 same rows',
      url: `${url}/rest/v1/items?select=*&qty=gt.500&owner=eq.${endUserUuid}&order=id.desc&limit=20`,
      method: 'GET',
      headers: { ...rest, prefer: 'count=exact' },
    },
    {
      op: 'get',
      target: 'rest/v1 user',
      url,
      method: 'GET',
      path: () => `/rest/v1/items?select=*&id=eq.${endUserId()}`,
      headers: { ...endUser, accept: 'application/vnd.pgrst.object+json' },
    },
    {
      op: 'create',
      target: 'rest/v1',
      url: `${url}/rest/v1/items`,
      method: 'POST',
      body: newRow,
      headers: { ...rest, ...json, prefer: 'return=representation' },
    },
  ];
}

/** postgresDatabase makes a database `name` on the PostgreSQL server of serverUrl (dropped first if it exists). */
export async function postgresDatabase(serverUrl, name) {
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

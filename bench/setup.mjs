// What bench/run.mjs and bench/profile.mjs share: starting the servers, seeding Basalt with the benchmark's
// table (10,000 rows of `items`) and its keys, the scenarios, and one autocannon load.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

/** root is the repository's root. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** ROWS is how many rows the benchmark's table holds before any create. */
export const ROWS = 10_000;

/**
 * startProcess runs a server and resolves with its port once it prints its listening line. Its output goes to
 * a file beside the data (`logFile`), as in a deployment: read through a pipe, the per-request log lines would
 * cost the load generator, which runs in this process, CPU time that the measurement needs.
 */
export function startProcess(args, { env = {}, pattern, logFile, nodeOptions = [] }) {
  const out = fs.openSync(logFile, 'w');
  const child = spawn(process.execPath, [...nodeOptions, ...args], {
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

/** startBasalt builds the server and starts it on SQLite in dataDir, with the benchmark's limits. */
export async function startBasalt(dataDir, nodeOptions = []) {
  const { buildServer } = await import('../scripts/build.mjs');
  await buildServer();
  return startProcess(['packages/server/dist/main.js', 'serve', '--port', '0'], {
    logFile: path.join(path.dirname(dataDir), 'basalt-stdout.log'),
    env: {
      BASALT_DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'info',
      AUTH_RATE_LIMIT: '1000',
      API_RATE_LIMIT: '100000000',
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
 * seedBasalt registers an account, creates the items table with ROWS rows and an API key; it returns the
 * headers of each API: `rest` (apikey + the user's token), `apiKey` (the API key as bearer) and `endUser` (the
 * app's anon key + an end user's token). The items are owned by END_USERS end users of the account's app under
 * `own rows` rules on every operation: the end user reads their own ROWS / END_USERS rows (`endUserIds`), the
 * account every row.
 */
export async function seedBasalt(base) {
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
  for (let start = 1; start <= ROWS; start += 1000) {
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      name: `item ${start + i}`,
      qty: (start + i) % 1000,
      done: (start + i) % 2 === 1,
      owner: endUsers[(start + i) % END_USERS].id,
    }));
    await http(base, 'POST', '/rest/v1/items', { headers: rest, json: rows });
  }
  const { key } = await http(base, 'POST', '/api/keys', { headers: auth, json: { name: 'bench' } });
  const [first] = endUsers;
  const endUser = { apikey: app.anonKey, authorization: `Bearer ${first.token}` };
  const owned = await http(base, 'GET', `/rest/v1/items?select=id&owner=eq.${first.id}`, { headers: endUser });
  return { rest, apiKey: { authorization: `Bearer ${key}` }, endUser, endUserIds: owned.map((row) => row.id) };
}

const randomId = () => 1 + Math.floor(Math.random() * ROWS);
const newRow = () =>
  JSON.stringify({ name: `new ${Math.random()}`, qty: Math.floor(Math.random() * 1000), done: false });

/** baselineScenarios are the three operations on the bare baseline server. */
export function baselineScenarios(baseline) {
  return [
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
}

/**
 * basaltScenarios are the same operations through /api/table (API key) and /rest/v1 (apikey + token), and the
 * reads of /rest/v1 as an end user under `own rows` (target `rest/v1 user`): the same list, and gets of their rows.
 */
export function basaltScenarios({ url, rest, apiKey, endUser, endUserIds }) {
  const ownId = () => endUserIds[Math.floor(Math.random() * endUserIds.length)];
  const json = { 'content-type': 'application/json' };
  return [
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
      op: 'list',
      target: 'rest/v1 user',
      url: `${url}/rest/v1/items?select=*&qty=gt.500&order=id.desc&limit=20`,
      method: 'GET',
      headers: { ...endUser, prefer: 'count=exact' },
    },
    {
      op: 'get',
      target: 'rest/v1 user',
      url,
      method: 'GET',
      path: () => `/rest/v1/items?select=*&id=eq.${ownId()}`,
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

/** load runs one scenario for `duration` seconds over `connections` connections and returns autocannon's result. */
export function load(scenario, { duration, connections }) {
  return autocannon({
    url: scenario.url,
    connections,
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

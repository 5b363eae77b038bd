// `npm run bench:relations`: embedded resources on /rest/v1. Starts Basalt (SQLite, or PostgreSQL with
// --engine postgres in a database of its own, dropped at the end), creates authors, posts (author_id references
// authors) and comments (post_id references posts, two per post), seeds them straight into the database, then
// measures with autocannon a page of 20 posts with `author:authors(name)` and `comments(count)` at a random
// offset against the bare baseline (relations-baseline.mjs: node:http and the one hand-written join for the same
// answer), the two taking turns in the same run, then the same page without embeds and with each embed alone. It
// checks first that both answer the same rows.
// Usage: node bench/relations.mjs [--posts 10000] [--engine sqlite|postgres] [--duration 5] [--connections 4] [--rounds 3]
// [--cpu-prof DIR] (Basalt's CPU profile of the whole run, for Chrome DevTools or bench/profile.mjs)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { load, postgresDatabase, startBasalt, startProcess } from './setup.mjs';

const { values } = parseArgs({
  options: {
    posts: { type: 'string', default: '10000' },
    engine: { type: 'string', default: 'sqlite' },
    'database-url': { type: 'string' },
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '4' },
    'cpu-prof': { type: 'string' },
  },
});
const POSTS = Number(values.posts);
const AUTHORS = Math.max(1, Math.floor(POSTS / 50));
const DURATION = Number(values.duration);
const CONNECTIONS = Number(values.connections);
const ROUNDS = Math.max(1, Number(values.rounds));
const SERVER_URL =
  values['database-url'] ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PAGE_SELECT = 'id,title,author:authors(name),comments(count)';

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

// Rows straight into the real tables, with the kept row counts set as a write through Basalt would set them.
async function seed({ file, databaseUrl }, ids) {
  const statements = [
    `INSERT INTO "t_${ids.authors}" (name) SELECT 'author ' || i FROM s(${AUTHORS})`,
    `INSERT INTO "t_${ids.posts}" (title, author_id) SELECT 'post ' || i, 1 + (i % ${AUTHORS}) FROM s(${POSTS})`,
    `INSERT INTO "t_${ids.comments}" (body, post_id) SELECT 'comment ' || i, 1 + (i % ${POSTS}) FROM s(${POSTS * 2})`,
  ];
  const recount = (
    id,
  ) => `UPDATE table_row_counts SET row_count = CASE WHEN shard = 0 THEN (SELECT count(*) FROM "t_${id}")
    ELSE 0 END, version = version + 1 WHERE table_id = ${id}`;
  if (databaseUrl) {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    client.on('error', () => {});
    for (const text of statements) {
      await client.query(text.replace(/FROM s\((\d+)\)/, (_, n) => `FROM generate_series(1, ${Number(n)}) i`));
    }
    for (const id of Object.values(ids)) await client.query(recount(id));
    for (const id of Object.values(ids)) await client.query(`ANALYZE "t_${id}"`);
    await client.end();
    return;
  }
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(file);
  db.pragma('busy_timeout = 10000');
  db.transaction(() => {
    for (const text of statements) {
      const n = Number(/s\((\d+)\)/.exec(text)[1]);
      db.prepare(
        `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${n}) ${text.replace(/FROM s\(\d+\)/, 'FROM s')}`,
      ).run();
    }
    for (const id of Object.values(ids)) db.prepare(recount(id)).run();
  })();
  db.close();
}

function summary(name, result) {
  const line = {
    name,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
  console.log(JSON.stringify(line));
  return line;
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-bench-relations-'));
const dataDir = path.join(work, 'data');
fs.mkdirSync(dataDir);
let databaseUrl = '';
let dropDatabase = async () => {};
if (values.engine === 'postgres') {
  const made = await postgresDatabase(SERVER_URL, `basalt_bench_relations_${process.pid}`);
  databaseUrl = made.url;
  dropDatabase = () => made.drop();
}
const children = [];
try {
  const profile = values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values['cpu-prof'])}`] : [];
  const basalt = await startBasalt(dataDir, profile, { databaseUrl });
  children.push(basalt.child);
  const base = `http://127.0.0.1:${basalt.port}`;
  const { anonKey } = await http(base, 'GET', '/api/config');
  const { session } = await http(base, 'POST', '/api/auth/register', {
    json: { username: 'bench', email: 'bench@example.com', password: 'Bench!pass1' },
  });
  const headers = { authorization: `Bearer ${session.access_token}`, apikey: anonKey };
  const create = async (name, schema) =>
    (await http(base, 'POST', '/api/tables', { headers, json: { name, schema } })).id;
  const ref = (table) => ({ type: 'number', references: { table, onDelete: 'cascade' } });
  const ids = {
    authors: await create('authors', { name: { type: 'text' } }),
    posts: await create('posts', { title: { type: 'text' }, author_id: ref('authors') }),
    comments: await create('comments', { body: { type: 'text' }, post_id: ref('posts') }),
  };
  const file = path.join(dataDir, 'basalt.db');
  await seed({ file, databaseUrl }, ids);
  const baseline = await startProcess(
    ['bench/relations-baseline.mjs', '0', databaseUrl || file, ids.posts, ids.authors, ids.comments],
    { logFile: path.join(work, 'baseline.log'), pattern: /listening (\d+)/ },
  );
  children.push(baseline.child);
  const baselineBase = `http://127.0.0.1:${baseline.port}`;

  // Same answer first: a benchmark of a wrong answer measures nothing.
  const offset = Math.floor(POSTS / 2);
  const ours = await http(base, 'GET', `/rest/v1/posts?select=${PAGE_SELECT}&order=id&limit=20&offset=${offset}`, {
    headers,
  });
  const bare = await http(baselineBase, 'GET', `/?offset=${offset}`);
  if (JSON.stringify(ours) !== JSON.stringify(bare)) {
    throw new Error(`Basalt and the baseline disagree:\n${JSON.stringify(ours[0])}\n${JSON.stringify(bare[0])}`);
  }
  const randomOffset = () => Math.floor(Math.random() * (POSTS - 20));
  const options = { duration: DURATION, connections: CONNECTIONS };
  const embeddedPage = {
    url: base,
    method: 'GET',
    headers,
    path: () => `/rest/v1/posts?select=${PAGE_SELECT}&order=id&limit=20&offset=${randomOffset()}`,
  };
  const baselinePage = { url: baselineBase, method: 'GET', path: () => `/?offset=${randomOffset()}` };
  // A warm-up of both, unmeasured: the first seconds of a fresh process measure its JIT and caches.
  await load(embeddedPage, { duration: Math.max(2, DURATION), connections: CONNECTIONS });
  await load(baselinePage, { duration: 2, connections: CONNECTIONS });
  // The baseline and the embedded page take turns, ROUNDS times (the order swapped each round): on a shared machine
  // the speed of both moves within a minute, and a ratio of neighbours moves less. The ratios are the rounds'
  // medians.
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    const pair = {};
    for (const name of round % 2 ? ['embedded select', 'baseline join'] : ['baseline join', 'embedded select']) {
      pair[name] = summary(name, await load(name === 'baseline join' ? baselinePage : embeddedPage, options));
    }
    rounds.push(pair);
  }
  const results = [];
  for (const [name, select] of [
    ['same page, no embeds', 'id,title'],
    ['many-to-one only', 'id,title,author:authors(name)'],
    ['comments(count) only', 'id,title,comments(count)'],
  ]) {
    const page = () => `/rest/v1/posts?select=${select}&order=id&limit=20&offset=${randomOffset()}`;
    results.push(summary(name, await load({ url: base, method: 'GET', headers, path: page }, options)));
  }
  const median = (numbers) => {
    const sorted = [...numbers].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  };
  const of = (name, key) => rounds.map((pair) => pair[name][key]);
  const ratio = {
    engine: values.engine,
    posts: POSTS,
    rounds: ROUNDS,
    baselineRps: median(of('baseline join', 'rps')),
    embeddedRps: median(of('embedded select', 'rps')),
    baselineP99: median(of('baseline join', 'p99')),
    embeddedP99: median(of('embedded select', 'p99')),
    rpsRatio: Number(median(rounds.map((pair) => pair['embedded select'].rps / pair['baseline join'].rps)).toFixed(2)),
    p99Ratio: Number(
      median(rounds.map((pair) => pair['embedded select'].p99 / Math.max(1, pair['baseline join'].p99))).toFixed(2),
    ),
  };
  console.log(JSON.stringify(ratio));
  fs.mkdirSync(path.join('bench', 'results'), { recursive: true });
  fs.writeFileSync(
    path.join('bench', 'results', `relations-${values.engine}-${POSTS}.json`),
    `${JSON.stringify({ rounds, results, ratio }, null, 2)}\n`,
  );
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  // The servers go before their database: dropped under them, it ends their connections with an error.
  const exited = children.map((child) =>
    child.exitCode !== null ? null : new Promise((resolve) => child.once('exit', resolve)),
  );
  for (const child of children) child.kill();
  await Promise.all(exited);
  await dropDatabase();
  fs.rmSync(work, { recursive: true, force: true });
}

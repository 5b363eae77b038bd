// `npm run bench:sql`: a 10,000-statement SQL file (CREATE TABLE, CREATE INDEX, ALTER TABLE and INSERTs) run
// through POST /api/projects/:id/files/execute-sql against a PostgreSQL database, and the same file through
// `psql -f` against another fresh database, in the same run. It reports statements/s of both and their ratio
// (target: Basalt at least 0.5× psql). Basalt runs in this process on SQLite, with the default options
// (transactional, stopOnError); psql -1 -f (one transaction, like those defaults) is reported beside. PostgreSQL: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else local.
// Usage: node bench/sql.mjs [--statements 10000] [--rounds 3]
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { register } from 'tsx/esm/api';

const { values } = parseArgs({
  options: { statements: { type: 'string', default: '10000' }, rounds: { type: 'string', default: '3' } },
});
const STATEMENTS = Number(values.statements);
const ROUNDS = Number(values.rounds);
const adminUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

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
  const name = `basalt_bench_sql_${randomBytes(5).toString('hex')}`;
  await query(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => query(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

// Every 100 statements: a table, an index and a column added, then inserts into it (with quotes and semicolons
// inside strings, so the splitter has work to do).
function sqlFile(count) {
  const lines = [];
  let table = 0;
  while (lines.length < count) {
    table++;
    lines.push(
      `CREATE TABLE bench_${table} (id bigint PRIMARY KEY, name text NOT NULL, price numeric(10,2), created_at timestamptz DEFAULT now());`,
    );
    lines.push(`CREATE INDEX bench_${table}_name_idx ON bench_${table} (name);`);
    lines.push(`ALTER TABLE bench_${table} ADD COLUMN note text;`);
    for (let i = 1; i <= 97 && lines.length < count; i++) {
      lines.push(
        `INSERT INTO bench_${table} (id, name, price, note) VALUES (${i}, 'item ${i}; it''s "quoted"', ${(i * 1.25).toFixed(2)}, '-- not a comment /* nor this */');`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

async function startBasalt() {
  const unregister = register();
  const { buildApp } = await import('../packages/server/src/app.ts');
  const { loadConfig } = await import('../packages/server/src/config.ts');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-bench-sql-'));
  const config = { ...loadConfig({ LOG_LEVEL: 'silent' }), dataDir, databaseUrl: null, consoleDir: null, port: 0 };
  const app = await buildApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${app.server.address().port}`;
  const call = async (method, pathname, body, headers = {}) => {
    const res = await fetch(base + pathname, {
      method,
      headers: { ...(body && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body instanceof FormData ? body : body ? JSON.stringify(body) : undefined,
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${method} ${pathname}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const signup = await call(
    'POST',
    '/auth/v1/signup',
    { email: 'bench@example.com', password: 'Bench-Passw0rd!', data: { username: 'bench' } },
    { apikey: app.basalt.tokens.anonKey },
  );
  const auth = { authorization: `Bearer ${signup.access_token}` };
  // A project the bench account owns (testing/sql.fixtures.ts: the projects tables until that area is on main).
  const { createTestProject } = await import('../packages/server/src/testing/sql.fixtures.ts');
  const projectId = await createTestProject({ app }, signup.user.id);
  return {
    call,
    auth,
    projectId,
    close: async () => {
      await app.close();
      await unregister();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const perSecond = (count, ms) => Math.round((count / ms) * 1000);

async function main() {
  const file = path.join(os.tmpdir(), `basalt-bench-${randomBytes(4).toString('hex')}.sql`);
  fs.writeFileSync(file, sqlFile(STATEMENTS));
  console.log(`${STATEMENTS} statements, ${(fs.statSync(file).size / 1024).toFixed(0)} KiB, ${ROUNDS} rounds each`);
  const basalt = await startBasalt();
  const form = new FormData();
  form.set('projectId', basalt.projectId);
  form.set('file', new Blob([fs.readFileSync(file)]), 'bench.sql');
  const uploaded = await basalt.call('POST', `/api/projects/${basalt.projectId}/files/upload`, form, basalt.auth);
  const rows = [];
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      const forPsql = await createDatabase();
      const forPsqlOne = await createDatabase();
      const forBasalt = await createDatabase();
      try {
        let started = performance.now();
        execFileSync('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', forPsql.url, '-f', file], {
          stdio: ['ignore', 'ignore', 'inherit'],
        });
        const psqlMs = performance.now() - started;
        // The same file in one transaction (psql -1), as execute-sql runs it by default: the fairer floor.
        started = performance.now();
        execFileSync('psql', ['-X', '-q', '-1', '-v', 'ON_ERROR_STOP=1', '-d', forPsqlOne.url, '-f', file], {
          stdio: ['ignore', 'ignore', 'inherit'],
        });
        const psqlOneMs = performance.now() - started;

        const connection = await basalt.call(
          'POST',
          `/api/projects/${basalt.projectId}/database-connections`,
          { name: `bench ${round}`, provider: 'CUSTOM', engine: 'POSTGRESQL', connectionString: forBasalt.url },
          basalt.auth,
        );
        started = performance.now();
        const result = await basalt.call(
          'POST',
          `/api/projects/${basalt.projectId}/files/execute-sql`,
          { fileId: uploaded.id, connectionId: connection.id, options: { timeout: 300_000 } },
          basalt.auth,
        );
        const basaltMs = performance.now() - started;
        if (result.summary.successfulStatements !== STATEMENTS) throw new Error(`Basalt: ${result.message}`);
        const [check] = await query(
          forBasalt.url,
          'select count(*)::int as n from pg_tables where tablename like $$bench_%$$',
        );
        rows.push({ round, psqlMs, psqlOneMs, basaltMs, tables: check.n });
        console.log(
          `round ${round}: psql -f ${psqlMs.toFixed(0)} ms (${perSecond(STATEMENTS, psqlMs)} st/s) · psql -1 -f ${psqlOneMs.toFixed(0)} ms (${perSecond(STATEMENTS, psqlOneMs)} st/s) · execute-sql ${basaltMs.toFixed(0)} ms (${perSecond(STATEMENTS, basaltMs)} st/s) · ratio ${(psqlMs / basaltMs).toFixed(2)}×`,
        );
      } finally {
        await forPsql.drop();
        await forPsqlOne.drop();
        await forBasalt.drop();
      }
    }
  } finally {
    await basalt.close();
    fs.rmSync(file, { force: true });
  }
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  const psql = median(rows.map((r) => r.psqlMs));
  const psqlOne = median(rows.map((r) => r.psqlOneMs));
  const ours = median(rows.map((r) => r.basaltMs));
  const ratio = psql / ours;
  console.log(
    `median: psql -f ${perSecond(STATEMENTS, psql)} st/s, psql -1 -f ${perSecond(STATEMENTS, psqlOne)} st/s, execute-sql ${perSecond(STATEMENTS, ours)} st/s: ${ratio.toFixed(2)}× psql -f (target ≥ 0.5×) ${ratio >= 0.5 ? 'PASS' : 'FAIL'}; ${(psqlOne / ours).toFixed(2)}× psql -1 -f`,
  );
  if (ratio < 0.5) process.exitCode = 1;
}

await main();

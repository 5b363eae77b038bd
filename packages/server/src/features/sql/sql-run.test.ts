import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  blackHole,
  createMysqlTarget,
  createPostgresTarget,
  type TestTarget,
} from '../../testing/sql-targets.fixtures.js';
import { type RunSettings, runSql } from './sql-run.js';
import { SqlInputError } from './sql-statements.js';
import { TargetError } from './sql-target.js';

// Runs against the real local PostgreSQL and MariaDB: every option, timeouts, caps and injection attempts.

const defaults: RunSettings = {
  dryRun: false,
  transactional: true,
  stopOnError: true,
  timeout: 30_000,
  variableReplacements: {},
};

interface Engine {
  name: string;
  create(): Promise<TestTarget>;
  sleep(seconds: number): string;
  millionRows: string;
}

const engines: Engine[] = [
  {
    name: 'PostgreSQL',
    create: createPostgresTarget,
    sleep: (s) => `SELECT pg_sleep(${s})`,
    millionRows: 'SELECT g AS n, md5(g::text) AS h FROM generate_series(1, 1000000) g',
  },
  {
    name: 'MariaDB',
    create: createMysqlTarget,
    sleep: (s) => `SELECT SLEEP(${s})`,
    millionRows: 'SELECT seq AS n, md5(seq) AS h FROM seq_1_to_1000000',
  },
];

// create, a good insert, a failing insert (duplicate key), another good insert.
const SCRIPT = [
  'CREATE TABLE items (id INT PRIMARY KEY, label VARCHAR(50))',
  "INSERT INTO items VALUES (1, 'one')",
  "INSERT INTO items VALUES (1, 'again')",
  "INSERT INTO items VALUES (2, 'two')",
].join(';\n');

describe.each(engines)('runSql on $name', (engine) => {
  let target: TestTarget;
  beforeAll(async () => {
    target = await engine.create();
  });
  afterAll(() => target.drop());

  const run = (sql: string, settings: Partial<RunSettings> = {}) =>
    runSql(target.endpoint, sql, { ...defaults, ...settings });
  const labels = async () => {
    try {
      return (await target.query<{ id: number; label: string }>('SELECT id, label FROM items ORDER BY id')).map((r) =>
        Number(r.id),
      );
    } catch {
      return null; // no table
    }
  };
  const reset = () => target.query('DROP TABLE IF EXISTS items');

  it('answers the spec shape, rows capped at 1000 with the true count', async () => {
    const sql =
      engine.name === 'PostgreSQL'
        ? 'SELECT g AS n FROM generate_series(1, 2500) g'
        : 'SELECT seq AS n FROM seq_1_to_2500';
    const result = await run(`${sql}; SELECT 'a;b' AS s`);
    expect(result).toMatchObject({
      dryRun: false,
      summary: { totalStatements: 2, successfulStatements: 2, failedStatements: 0, dryRun: false },
    });
    expect(result.message).toContain('2 of 2 statements succeeded');
    const [first, second] = result.results;
    expect(first).toMatchObject({ statement: sql, success: true, rowCount: 2500, error: null });
    expect(first?.result).toHaveLength(1000);
    expect(Number(first?.result[999]?.n)).toBe(1000);
    expect(second?.result).toEqual([{ s: 'a;b' }]);
    expect(typeof first?.executionTime).toBe('number');
  });

  // Every combination of transactional, stopOnError and dryRun, on the same script.
  const combinations = [true, false].flatMap((transactional) =>
    [true, false].flatMap((stopOnError) => [true, false].map((dryRun) => ({ transactional, stopOnError, dryRun }))),
  );
  it.each(combinations)('transactional $transactional, stopOnError $stopOnError, dryRun $dryRun', async (options) => {
    await reset();
    const result = await run(SCRIPT, options);
    const table = await labels();
    const mysqlDry = options.dryRun && engine.name !== 'PostgreSQL';
    if (options.dryRun) {
      // A dry run leaves nothing behind.
      expect(table).toBeNull();
      expect(result.dryRun).toBe(true);
      expect(result.summary.dryRun).toBe(true);
      if (mysqlDry) {
        // Parsed and explained, nothing executed: no duplicate key can show.
        expect(result.message).toContain('EXPLAIN');
        expect(result.summary).toMatchObject({ totalStatements: 4, successfulStatements: 4, failedStatements: 0 });
      } else if (options.stopOnError) {
        expect(result.summary).toMatchObject({ successfulStatements: 2, failedStatements: 1 });
      } else {
        expect(result.summary).toMatchObject({ successfulStatements: 3, failedStatements: 1 });
      }
      return;
    }
    const failed = result.results.find((r) => !r.success);
    expect(failed?.statement).toBe("INSERT INTO items VALUES (1, 'again')");
    expect(failed?.error).toMatch(/duplicate/i);
    if (options.stopOnError) {
      expect(result.results).toHaveLength(3);
      expect(result.message).toContain('1 statement was not run');
      // PostgreSQL rolls the whole transaction back; MySQL's CREATE TABLE committed on its own.
      if (options.transactional) expect(table).toEqual(engine.name === 'PostgreSQL' ? null : []);
      else expect(table).toEqual([1]);
    } else {
      expect(result.results).toHaveLength(4);
      expect(table).toEqual([1, 2]);
    }
  });

  it('refuses a text that does not parse and runs none of it', async () => {
    await reset();
    const error = await run('CREATE TABLE items (id INT);\nINSERT INTO items VALUES (1);\n  SELEC 1 FROM items').catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SqlInputError);
    expect(error).toMatchObject({ code: 'sql_syntax_error', line: 3 });
    expect(await labels()).toBeNull();
  });

  it('stops a sleeping statement when the timeout passes', async () => {
    const started = Date.now();
    const result = await run(`${engine.sleep(20)}; SELECT 1`, { timeout: 1000 });
    const took = Date.now() - started;
    expect(took).toBeLessThan(4000);
    expect(result.results[0]?.success).toBe(false);
    expect(result.message).toContain('timeout of 1000 ms');
    expect(result.summary).toMatchObject({ totalStatements: 2, failedStatements: 1, successfulStatements: 0 });
  });

  it('refuses transaction control inside its own transaction', async () => {
    const result = await run('SELECT 1; COMMIT; SELECT 2', { stopOnError: false });
    expect(result.results[1]).toMatchObject({ success: false, error: expect.stringContaining('Transaction control') });
    expect(result.summary.successfulStatements).toBe(2);
    // Without a transaction of its own, the text's own transaction statements run.
    const own = await run('BEGIN; SELECT 1; COMMIT', { transactional: false });
    expect(own.summary.failedStatements).toBe(0);
  });

  it('substitutes variables as quoted literals that cannot inject', async () => {
    await reset();
    await target.query('CREATE TABLE items (id INT PRIMARY KEY, label VARCHAR(200))');
    const attacks = [
      "x'); DROP TABLE items; --",
      "\\'); DROP TABLE items; --",
      "\\\\'); DROP TABLE items; --",
      "it's \\ a $$ dollar $$ and {{other}}",
      "'' OR 1=1 #",
      '日本語 🚀',
    ];
    for (const [i, value] of attacks.entries()) {
      const result = await run(
        "INSERT INTO items VALUES ({{id}}, {{value}}); SELECT label FROM items WHERE label = {{value}} AND '{{value}}' = '{{value}}'",
        {
          variableReplacements: { id: String(i + 1), value },
        },
      );
      expect(result.summary.failedStatements, JSON.stringify(result.results)).toBe(0);
      expect(result.results[1]?.result).toEqual([{ label: value }]);
    }
    expect(await labels()).toEqual([1, 2, 3, 4, 5, 6]);
    if (engine.name !== 'PostgreSQL') {
      // The text itself may switch backslash escapes off between statements: still a literal.
      const result = await run("SET SESSION sql_mode = 'NO_BACKSLASH_ESCAPES'; SELECT {{v}} AS v", {
        transactional: false,
        variableReplacements: { v: "\\'; DROP TABLE items; --" },
      });
      expect(result.results[1]?.result).toEqual([{ v: "\\'; DROP TABLE items; --" }]);
    }
    const missing = await run('SELECT {{nope}}').catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: 'sql_variable_missing', line: 1, column: 8 });
  });

  it('places a syntax error in the text as written, before variables were replaced', async () => {
    const error = await run('SELECT {{a}};\nSELEC {{a}}', {
      variableReplacements: { a: 'a long value that shifts offsets' },
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'sql_syntax_error', line: 2, column: 1 });
  });

  it('reads a million rows with flat memory and the true count', async () => {
    globalThis.gc?.();
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }, 20);
    const result = await run(engine.millionRows, { timeout: 120_000 });
    clearInterval(sampler);
    expect(result.results[0]).toMatchObject({ success: true, rowCount: 1_000_000 });
    expect(result.results[0]?.result).toHaveLength(1000);
    // A million rows of two columns held at once would take well over 150 MB.
    expect(peak - before).toBeLessThan(100 * 1024 * 1024);
  }, 120_000);

  it('names the host of a connection refused, and of one that never answers, within the timeout', async () => {
    const refused = await runSql({ ...target.endpoint, host: '127.0.0.1', port: 1 }, 'SELECT 1', defaults).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(TargetError);
    expect((refused as Error).message).toBe('Could not connect to 127.0.0.1:1: connection refused');
    const hole = await blackHole();
    try {
      const started = Date.now();
      const hung = await runSql({ ...target.endpoint, host: '127.0.0.1', port: hole.port }, 'SELECT 1', {
        ...defaults,
        timeout: 1000,
      }).catch((e: unknown) => e);
      expect(Date.now() - started).toBeLessThan(2500);
      expect((hung as Error).message).toBe(`Could not connect to 127.0.0.1:${hole.port}: no answer within 1000 ms`);
    } finally {
      await hole.close();
    }
  });
});

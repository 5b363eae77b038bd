import fc from 'fast-check';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DialectName } from '../../db/dialect/dialect.js';
import type { SystemDatabase } from '../../db/schema.js';
import { type SignedInTestUser, signUpUser, startAuthServer, users } from '../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';
import {
  countLogMatches,
  countLogRows,
  insertLogRows,
  type LogQuery,
  listLogRows,
  type NewLogRow,
  narrowLogSearch,
} from './logs.store.js';

// The search through the engine's index (db/dialect/*-log-search.ts) answers exactly what the plain scan of
// message, source, path and context answers: the same entries, in the same order, on random entries made of
// the characters that differ between engines and between case foldings, and for hostile terms.

// Letters whose case SQLite's lower() leaves alone (non-ASCII) or that fold onto ASCII elsewhere (the Kelvin
// sign, the long s, the dotted and dotless i), LIKE's wildcards and escape, FTS5's syntax, and wide characters.
const ALPHABET = [
  ...'abAB01 ',
  'é',
  'É',
  'ß',
  'İ',
  'ı',
  'i',
  'I',
  'K',
  'k',
  'ſ',
  's',
  'S',
  ...'%_\\"*-:()^\'',
  '😀',
  '日',
];

/** HOSTILE are search terms that are syntax somewhere: FTS5, LIKE, SQL, JSON. */
const HOSTILE = [
  '"',
  '""',
  '"a"',
  'a"b',
  '*',
  'ab*',
  '"ab"*',
  'NEAR(a b)',
  'a NEAR b',
  'NEAR/2',
  '-ab',
  'a-b',
  'message:ab',
  'a:b',
  '(ab)',
  '((',
  ')',
  'a AND b',
  'a OR b',
  'NOT a',
  '^ab',
  '+ab',
  '{message}: ab',
  '%',
  '_',
  '%_%',
  '\\',
  '\\%',
  "'",
  "'; DROP TABLE system_logs; --",
  'É',
  'éÉ',
  'İı',
  '😀😀',
  '日本語',
  'a\u0000b',
  '\u0000',
  'x'.repeat(200),
];

describe.each(testDialects)('the log search on %s', (dialect) => {
  let server: TestServer;
  let admin: SignedInTestUser;
  const db = () => server.app.basalt.db;
  const stored: NewLogRow[] = [];

  beforeAll(async () => {
    server = await startAuthServer(dialect);
    admin = await signUpUser(server, users.carol);
    await server.app.basalt.logs.flush();
    await db().kysely.deleteFrom('system_logs').execute();
    const text = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 12 }).map((chars) => chars.join(''));
    const entries = fc.sample(
      fc.record({
        message: text,
        path: fc.option(text),
        context: text,
        source: fc.constantFrom('api', 'auth', 'jobs'),
      }),
      { numRuns: 1500, seed: 20301 },
    );
    entries.forEach((entry, i) => {
      stored.push({
        created_at: new Date(Date.UTC(2030, 0, 1) + Math.floor(i / 3) * 1000).toISOString(),
        level: i % 7 === 0 ? 'error' : 'info',
        source: entry.source,
        message: entry.message,
        path: entry.path,
        account_id: `acct-${i % 3}`,
        context: JSON.stringify({ note: entry.context }),
      });
    });
    // In batches of different sizes, as the writer stores them.
    for (let at = 0, size = 1; at < stored.length; at += size, size = (size * 7) % 500) {
      await insertLogRows(db(), stored.slice(at, at + size));
    }
  });
  afterAll(() => server.close());

  // The same query through the index and as the plain scan (ENGINES forces each way): the entries, and the
  // count of the logs page. The index answers a count from its candidates when narrowLogSearch found few, and by
  // reading them in its order when it did not (countLogMatches without candidates); the scan counts every entry.
  const answers = async (query: LogQuery) => {
    const narrowed = await narrowLogSearch(db(), query);
    const run = <T>(steps: string[], read: (trx: Kysely<SystemDatabase>) => Promise<T>) =>
      db()
        .kysely.transaction()
        .execute(async (trx) => {
          for (const step of steps) await sql.raw(step).execute(trx);
          return read(trx);
        });
    const ids = (rows: Array<{ id: number }>) => rows.map((r) => r.id);
    const all = { limit: 100_000, offset: 0 };
    return {
      indexed: await run(ENGINES[dialect].index, async (trx) => ({
        ids: ids(await listLogRows(trx, narrowed, all)),
        count: await countLogMatches({ ...db(), kysely: trx }, narrowed),
        counted: await countLogMatches({ ...db(), kysely: trx }, query),
      })),
      scan: await run(ENGINES[dialect].scan, async (trx) => {
        const count = { count: await countLogRows(trx, query), exact: true };
        return { ids: ids(await listLogRows(trx, query, all)), count, counted: count };
      }),
      narrowed: narrowed.searchCandidates !== undefined,
    };
  };

  it('finds exactly what the scan finds, on random terms', async () => {
    const texts = stored.flatMap((r) => [r.message, r.path ?? '', r.context, r.source]).filter((t) => t.length > 0);
    const flip = (c: string, upper: boolean) => (upper ? c.toUpperCase() : c.toLowerCase());
    const substring = fc
      .tuple(fc.constantFrom(...texts), fc.nat(), fc.integer({ min: 1, max: 6 }), fc.array(fc.boolean()))
      .map(([t, start, length, upper]) => {
        const chars = [...t];
        const from = start % chars.length;
        return chars
          .slice(from, from + length)
          .map((c, i) => flip(c, upper[i] ?? false))
          .join('');
      });
    const random = fc.array(fc.constantFrom(...ALPHABET), { minLength: 1, maxLength: 5 }).map((c) => c.join(''));
    const terms = fc.sample(fc.oneof(substring, random), { numRuns: 300, seed: 7 });
    let matched = 0;
    let narrowed = 0;
    for (const search of terms) {
      const answer = await answers({ search });
      expect(answer.indexed, JSON.stringify(search)).toEqual(answer.scan);
      if (answer.scan.ids.length > 0) matched++;
      if (answer.narrowed) narrowed++;
    }
    // Most terms are taken from the entries: the comparison is not between empty answers. On SQLite, the terms of
    // three characters or more (about half) went through the index's candidates.
    expect(matched).toBeGreaterThan(150);
    expect(narrowed > 100).toBe(ENGINES[dialect].narrows);
  });

  it('finds exactly what the scan finds with the other filters', async () => {
    for (const search of ['ab', 'aB0', 'ÉS', '"ab', '%_', 'api', '\\"']) {
      for (const filters of [{ accountId: 'acct-1' }, { level: 'error' as const }, { service: 'jobs' as const }]) {
        const { indexed, scan } = await answers({ search, ...filters });
        expect(indexed, `${search} ${JSON.stringify(filters)}`).toEqual(scan);
      }
    }
  });

  it('takes hostile terms literally', async () => {
    for (const search of HOSTILE) {
      const { indexed, scan } = await answers({ search });
      expect(indexed, JSON.stringify(search)).toEqual(scan);
    }
    // A NUL character is in no stored text (the writer removes it), so it matches nothing.
    expect((await answers({ search: 'a\u0000b' })).scan.ids).toEqual([]);
    expect((await answers({ search: '"' })).scan.ids.length).toBeGreaterThan(0);
  });

  it('answers hostile terms over HTTP on both forms, never with a server error', async () => {
    for (const search of HOSTILE) {
      const query = `search=${encodeURIComponent(search)}`;
      for (const url of [`/api/logs?${query}`, `/api/logs?page=1&limit=100&${query}`]) {
        const res = await server.request('GET', url, { headers: admin.headers });
        // A NUL character (%00) is refused in any URL before the search sees it (http/nul-guard.ts).
        expect(res.status, `${url}: ${res.text}`).toBe(search.includes('\u0000') ? 400 : 200);
      }
    }
  });

  it('has the search index, and narrows a search with it where the engine needs that done', async () => {
    expect(await ENGINES[dialect].indexed(db().kysely)).toBe(true);
    const narrowed = await narrowLogSearch(db(), { search: 'abAB' });
    expect(narrowed.searchCandidates !== undefined).toBe(ENGINES[dialect].narrows);
    // Under three characters no trigram exists.
    expect((await narrowLogSearch(db(), { search: 'ab' })).searchCandidates).toBeUndefined();
  });
});

/**
 * ENGINES says how each engine is made to read through its search index or not at all, how to see that the index
 * exists, and whether the store narrows a search to the index's candidates itself.
 */
const ENGINES: Record<
  DialectName,
  { index: string[]; scan: string[]; indexed(db: Kysely<SystemDatabase>): Promise<boolean>; narrows: boolean }
> = {
  // The FTS5 table is read only when narrowLogSearch found candidates; without them the store scans.
  sqlite: {
    index: [],
    scan: [],
    indexed: async (db) =>
      (await sql`SELECT 1 FROM sqlite_schema WHERE name = 'system_logs_search'`.execute(db)).rows.length === 1,
    narrows: true,
  },
  // The planner picks the trigram index by cost, and the suite's log is small: it is forced either way (with the
  // sequential and plain index scans off, a LIKE can only be read through the GIN index's bitmaps).
  postgres: {
    index: ['SET LOCAL enable_seqscan = off', 'SET LOCAL enable_indexscan = off'],
    scan: ['SET LOCAL enable_bitmapscan = off'],
    indexed: async (db) =>
      (await sql`SELECT 1 FROM pg_indexes WHERE indexname = 'system_logs_search_idx'`.execute(db)).rows.length === 1,
    narrows: false,
  },
};

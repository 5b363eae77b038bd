import { type Kysely, sql } from 'kysely';
import type { SystemDatabase } from '../schema.js';
import type { LogSearchDialect } from './dialect.js';

// The system log's search on SQLite (features/logs): system_logs_search, an FTS5 table with the trigram tokenizer
// over message, source, path and context. It indexes every run of three characters (code points), folded to
// lower case, so a term of three characters or more finds the entries that hold all its trigrams: every entry
// that contains the term, and a few that hold its trigrams apart (or in other columns, or differ in the case of
// a non-ASCII letter, which SQLite's lower() and LIKE leave alone). It is a filter of candidates: the store
// still tests their text with its LIKE conditions (features/logs/logs.store.ts), so the results are the scan's.
//
// Its form was chosen for the writer's cost, measured while choosing it with 1,000,000 generated entries (the
// cost of the chosen form is in docs/operations.md, from bench/logs.mjs):
// - content='' (contentless): the text is in system_logs already; the index stores only trigrams and rowids.
// - detail=none: no positions, so no phrase queries, which the LIKE test makes unnecessary; the index is half
//   the size of detail=full's and costs the writer less than half as much once it holds a million entries.
// - columnsize=0: no per-row sizes (they serve ranking, which the log does not do).
// - Filled by the writer with one INSERT … SELECT per batch (indexLogRows), not by an INSERT trigger: FTS5
//   writes its pending trigrams out at every statement of a transaction, and a batch is several INSERTs.
// - Emptied by triggers: a contentless table forgets a row only when told its old values, which a trigger has
//   ('delete' costs about what the insert did; contentless_delete=1, which needs only the rowid, was several
//   times dearer).

const INDEXED = 'message, source, path, context';
const forget = (row: string) =>
  `INSERT INTO system_logs_search (system_logs_search, rowid, ${INDEXED})
    VALUES ('delete', ${row}.id, ${row}.message, ${row}.source, ${row}.path, ${row}.context);`;
const remember = (row: string) =>
  `INSERT INTO system_logs_search (rowid, ${INDEXED})
    VALUES (${row}.id, ${row}.message, ${row}.source, ${row}.path, ${row}.context);`;

/**
 * trigramQuery is the FTS5 query that asks for every trigram of `term`, or null when the term has none (fewer
 * than three characters) or holds a NUL character (which FTS5 query strings end at). Each trigram is a quoted
 * string, quotes doubled, so no character of the term is FTS5 syntax (`*`, `-`, `:`, `NEAR`, parentheses).
 */
export function trigramQuery(term: string): string | null {
  const chars = [...term];
  if (chars.length < 3 || term.includes('\u0000')) return null;
  const trigrams = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) trigrams.add(chars.slice(i, i + 3).join(''));
  return [...trigrams].map((t) => `"${t.replaceAll('"', '""')}"`).join(' AND ');
}

/** sqliteLogSearch is the system log's search index on SQLite. */
export const sqliteLogSearch: LogSearchDialect = {
  async createLogSearchIndex(db) {
    const build = async (trx: Kysely<SystemDatabase>) => {
      await sql`CREATE VIRTUAL TABLE system_logs_search USING fts5(${sql.raw(INDEXED)},
        content='', columnsize=0, detail=none, tokenize='trigram')`.execute(trx);
      await sql`CREATE TRIGGER system_logs_search_delete AFTER DELETE ON system_logs
        BEGIN ${sql.raw(forget('old'))} END`.execute(trx);
      // Entries are never updated; if one were, the index must follow.
      await sql`CREATE TRIGGER system_logs_search_update AFTER UPDATE OF ${sql.raw(INDEXED)} ON system_logs
        BEGIN ${sql.raw(forget('old'))} ${sql.raw(remember('new'))} END`.execute(trx);
      await sql`INSERT INTO system_logs_search (rowid, ${sql.raw(INDEXED)})
        SELECT id, ${sql.raw(INDEXED)} FROM system_logs`.execute(trx);
    };
    // Kysely runs SQLite's migrations outside a transaction; the table, its triggers and its rows come together.
    await (db.isTransaction ? build(db) : db.transaction().execute(build));
  },
  async indexLogRows(trx, ids) {
    if (!ids) return;
    await sql`INSERT INTO system_logs_search (rowid, ${sql.raw(INDEXED)})
      SELECT id, ${sql.raw(INDEXED)} FROM system_logs WHERE id BETWEEN ${ids.first} AND ${ids.last}`.execute(trx);
  },
  // The candidates are counted first, up to max + 1, which costs at most that many index reads: a common term
  // (every `GET`) would make the IN list below as long as the log, where a plain read in order finds a page
  // at once.
  async logSearchCandidates(db, term, max) {
    const query = trigramQuery(term);
    if (query === null) return null;
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM (SELECT 1 FROM system_logs_search
      WHERE system_logs_search MATCH ${query} LIMIT ${max + 1})`.execute(db);
    if (Number(rows[0]?.n ?? 0) > max) return null;
    return sql`system_logs.id IN (SELECT rowid FROM system_logs_search WHERE system_logs_search MATCH ${query})`;
  },
  // CROSS JOIN makes SQLite read the index first (in rowid order) and look each candidate up, rather than read
  // system_logs and ask the index about every entry.
  async countLogSearchMatches(db, term, where, limit) {
    const query = trigramQuery(term);
    if (query === null) return null;
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM (SELECT 1 FROM system_logs_search
      CROSS JOIN system_logs ON system_logs.id = system_logs_search.rowid
      WHERE system_logs_search MATCH ${query} AND ${where} LIMIT ${limit})`.execute(db);
    return Number(rows[0]?.n ?? 0);
  },
};

import type { LogLevel, LogSource } from '@basalt/shared';
import { type ExpressionBuilder, expressionBuilder, type Kysely, type Selectable, sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { LoggedIds, SqlFragment } from '../../db/dialect/dialect.js';
import type { SystemDatabase, SystemLogsTable } from '../../db/schema.js';
import { SqlText, textQuery } from '../../db/sql-text.js';

/** LogRow is one stored entry of system_logs. */
export type LogRow = Selectable<SystemLogsTable>;

/** NewLogRow is an entry ready to store. */
export type NewLogRow = Omit<LogRow, 'id'>;

/** LogQuery selects entries: all of them, or one account's (accountId), narrowed by the filters. */
export interface LogQuery {
  /** Only this account's entries; undefined for every entry (an administrator). */
  accountId?: string;
  level?: LogLevel;
  service?: LogSource;
  search?: string;
  /**
   * The entries the search index says may contain `search` (narrowLogSearch); the text is still tested on them.
   * Absent: the search tests every entry the other filters leave.
   */
  searchCandidates?: SqlFragment;
}

/** LogCount is how many entries a query has: exactly, or more than `count` when counting stopped there. */
export interface LogCount {
  count: number;
  exact: boolean;
}

// The search's limits (docs/operations.md "What a query costs"; bench/logs.mjs measures them). A search that the
// index narrows to at most SEARCH_CANDIDATES_MAX entries reads only those: its count is exact and its pages are
// sorted from them (at the limit, about as long as a count of a common term). Any other search (a common term, a
// term under three characters, an engine whose planner picks its index itself) reads the entries in order, which
// finds a page of a common term at once; its count stops past SEARCH_COUNT_LIMIT matches, and reads the index's
// candidates rather than the entries where the engine can and no level or account narrows the entries
// (countLogMatches).
const SEARCH_CANDIDATES_MAX = 20_000;
/** SEARCH_COUNT_LIMIT is how many matches of a search are counted at most (more are reported as "more than"). */
const SEARCH_COUNT_LIMIT = 10_000;

const COLUMNS = ['created_at', 'level', 'source', 'message', 'path', 'account_id', 'context'] as const;

// A batch is written as a few multi-row INSERTs of 256, 128, … 1 rows (its size in binary). The statement text
// depends only on the row count, so there are 9 of them: SQLite's prepared-statement cache keeps them, and they
// do not push the record APIs' statements out of it, as one text per batch size would.
const CHUNK_ROWS = [256, 128, 64, 32, 16, 8, 4, 2, 1];
const insertTexts = new Map<string, string>();

function insertText(rows: number, numbered: boolean): string {
  const key = `${rows}:${numbered}`;
  let text = insertTexts.get(key);
  if (!text) {
    const out = new SqlText(numbered).raw(`INSERT INTO system_logs (${COLUMNS.join(', ')}) VALUES `);
    for (let r = 0; r < rows; r++) {
      out
        .raw(r === 0 ? '(' : ', (')
        .values(COLUMNS.map(() => null))
        .raw(')');
    }
    text = out.text;
    insertTexts.set(key, text);
  }
  return text;
}

/**
 * insertLogRows stores entries with a handful of multi-row INSERTs in one transaction: all or none. It is a
 * write transaction, so on SQLite it shares its commit with the record writes of the moment. The search index
 * takes the batch in the same transaction, in one statement (db/dialect: logSearch.indexLogRows).
 */
export async function insertLogRows(db: Db, rows: readonly NewLogRow[]): Promise<void> {
  const numbered = db.dialect.userTables.numberedParameters;
  await db.transaction(
    async ({ kysely: trx }) => {
      let at = 0;
      // The ids the engine gave the batch, where it reports them (SQLite: the last id of each INSERT; the ids of a
      // transaction on its only connection follow one another).
      let first: number | undefined;
      let last: number | undefined;
      for (const size of CHUNK_ROWS) {
        while (rows.length - at >= size) {
          const parameters: unknown[] = [];
          for (let r = at; r < at + size; r++) for (const column of COLUMNS) parameters.push(rows[r]?.[column]);
          const { insertId } = await trx.executeQuery(textQuery(insertText(size, numbered), parameters));
          if (insertId !== undefined) {
            last = Number(insertId);
            first ??= last - size + 1;
          }
          at += size;
        }
      }
      const ids: LoggedIds | null = first === undefined || last === undefined ? null : { first, last };
      if (rows.length > 0) await db.dialect.logSearch.indexLogRows(trx, ids);
    },
    { group: true },
  );
}

// LIKE wildcards in the search text match themselves.
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * narrowLogSearch returns the query with its search narrowed to the search index's candidates, when the index
 * finds at most SEARCH_CANDIDATES_MAX of them (on SQLite: a term of three characters or more that is not common).
 */
export async function narrowLogSearch(db: Db, query: LogQuery): Promise<LogQuery> {
  if (!query.search) return query;
  const candidates = await db.dialect.logSearch.logSearchCandidates(db.kysely, query.search, SEARCH_CANDIDATES_MAX);
  return candidates ? { ...query, searchCandidates: candidates } : query;
}

/**
 * logConditions narrows system_logs to a query. The search is a case-insensitive substring test of message,
 * source, path and the context's JSON text, made on the index's candidates when narrowLogSearch found them, else
 * on every entry the other conditions leave (PostgreSQL's planner may still use its trigram index for it).
 * Columns are named with their table: the search index may be joined, and has columns of the same names.
 */
function logConditions(eb: ExpressionBuilder<SystemDatabase, 'system_logs'>, query: LogQuery) {
  const conditions = [];
  if (query.accountId !== undefined) conditions.push(eb('system_logs.account_id', '=', query.accountId));
  if (query.level) conditions.push(eb('system_logs.level', '=', query.level));
  if (query.service) conditions.push(eb('system_logs.source', '=', query.service));
  if (query.searchCandidates) conditions.push(query.searchCandidates.$castTo<boolean>());
  // The writer removes NUL from every text it stores (PostgreSQL's text cannot hold one, and SQLite's LIKE
  // would read a pattern only up to it): a term with a NUL matches nothing.
  if (query.search?.includes('\u0000')) conditions.push(sql<boolean>`1 = 0`);
  else if (query.search) {
    const pattern = `%${likeEscaped(query.search)}%`;
    conditions.push(
      eb.or(
        (['message', 'source', 'path', 'context'] as const).map(
          (column) => sql<boolean>`lower(${sql.ref(`system_logs.${column}`)}) LIKE lower(${pattern}) ESCAPE '\\'`,
        ),
      ),
    );
  }
  return eb.and(conditions);
}

/**
 * listLogRows returns entries newest first, skipping `offset`. With `fromOldest` it reads from the other end
 * (oldest first, skipping `offset` from there): the last pages of a long log cost as little as the first ones.
 */
export function listLogRows(
  db: Kysely<SystemDatabase>,
  query: LogQuery,
  page: { limit: number; offset: number; fromOldest?: boolean },
): Promise<LogRow[]> {
  const direction = page.fromOldest ? 'asc' : 'desc';
  return db
    .selectFrom('system_logs')
    .selectAll()
    .where((eb) => logConditions(eb, query))
    .orderBy('created_at', direction)
    .orderBy('id', direction)
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** countLogRows counts the entries of a query. */
export async function countLogRows(db: Kysely<SystemDatabase>, query: LogQuery): Promise<number> {
  const row = await db
    .selectFrom('system_logs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where((eb) => logConditions(eb, query))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * countLogMatches counts the entries of a query for a page: exactly, except for a search that the index did not
 * narrow, which stops counting past SEARCH_COUNT_LIMIT matches rather than read every entry. Without a level or
 * an account to narrow the entries, such a count reads the index's candidates where the engine can (SQLite): a
 * term in one entry of fifty is counted to the limit in a fraction of the entries a read in order would take.
 */
export async function countLogMatches(db: Db, query: LogQuery): Promise<LogCount> {
  if (!query.search || query.searchCandidates) return { count: await countLogRows(db.kysely, query), exact: true };
  const limit = SEARCH_COUNT_LIMIT + 1;
  const where = logConditions(expressionBuilder<SystemDatabase, 'system_logs'>(), query);
  const streamed =
    query.accountId === undefined && !query.level
      ? await db.dialect.logSearch.countLogSearchMatches(db.kysely, query.search, where, limit)
      : null;
  const count = streamed ?? (await countLogRowsUpTo(db.kysely, query, limit));
  return count > SEARCH_COUNT_LIMIT ? { count: SEARCH_COUNT_LIMIT, exact: false } : { count, exact: true };
}

async function countLogRowsUpTo(db: Kysely<SystemDatabase>, query: LogQuery, limit: number): Promise<number> {
  const row = await db
    .selectFrom((qb) =>
      qb
        .selectFrom('system_logs')
        .select(sql<number>`1`.as('one'))
        .where((eb) => logConditions(eb, query))
        .limit(limit)
        .as('matches'),
    )
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** LogPosition is where an entry sits in the newest-first order. */
export interface LogPosition {
  created_at: string;
  id: number;
}

/** findLogPosition returns the position of the entry that has `newer` entries before it, newest first. */
export function findLogPosition(db: Kysely<SystemDatabase>, newer: number): Promise<LogPosition | undefined> {
  return db
    .selectFrom('system_logs')
    .select(['created_at', 'id'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .offset(newer)
    .executeTakeFirst();
}

/**
 * deleteOldLogs deletes up to `limit` of the oldest entries created before `before`, or at or before the
 * position `through`; it returns how many it deleted. Callers repeat it, so no statement holds the database long.
 */
export async function deleteOldLogs(
  db: Kysely<SystemDatabase>,
  bound: { before: string } | { through: LogPosition },
  limit: number,
): Promise<number> {
  const result = await db
    .deleteFrom('system_logs')
    .where('id', 'in', (qb) =>
      qb
        .selectFrom('system_logs')
        .select('id')
        .where((eb) =>
          'before' in bound
            ? eb('created_at', '<', bound.before)
            : eb.or([
                eb('created_at', '<', bound.through.created_at),
                eb.and([eb('created_at', '=', bound.through.created_at), eb('id', '<=', bound.through.id)]),
              ]),
        )
        .orderBy('created_at')
        .orderBy('id')
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

import type { LogLevel, LogSource } from '@basalt/shared';
import { CompiledQuery, type ExpressionBuilder, type Kysely, sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { SystemDatabase } from '../../db/schema.js';
import { SqlText } from '../../db/sql-text.js';

/** LogRow is one stored entry of system_logs. */
export interface LogRow {
  id: number;
  created_at: string;
  level: string;
  source: string;
  message: string;
  path: string | null;
  account_id: string | null;
  context: string;
}

/** NewLogRow is an entry ready to store. */
export type NewLogRow = Omit<LogRow, 'id'>;

/** LogQuery selects entries: all of them, or one account's (accountId), narrowed by the filters. */
export interface LogQuery {
  /** Only this account's entries; undefined for every entry (an administrator). */
  accountId?: string;
  level?: LogLevel;
  service?: LogSource;
  search?: string;
}

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
 * write transaction, so on SQLite it shares its commit with the record writes of the moment.
 */
export async function insertLogRows(db: Db, rows: readonly NewLogRow[]): Promise<void> {
  const numbered = db.dialect.userTables.numberedParameters;
  await db.writeTransaction(async (trx) => {
    let at = 0;
    for (const size of CHUNK_ROWS) {
      while (rows.length - at >= size) {
        const parameters: unknown[] = [];
        for (let r = at; r < at + size; r++) for (const column of COLUMNS) parameters.push(rows[r]?.[column]);
        await trx.executeQuery(CompiledQuery.raw(insertText(size, numbered), parameters));
        at += size;
      }
    }
  });
}

// LIKE wildcards in the search text match themselves.
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * logConditions narrows system_logs to a query. The search is a case-insensitive substring test of message,
 * source, path and the context's JSON text: no index serves it, so it reads every entry the other conditions
 * leave (docs/operations.md gives its cost).
 */
function logConditions(eb: ExpressionBuilder<SystemDatabase, 'system_logs'>, query: LogQuery) {
  const conditions = [];
  if (query.accountId !== undefined) conditions.push(eb('account_id', '=', query.accountId));
  if (query.level) conditions.push(eb('level', '=', query.level));
  if (query.service) conditions.push(eb('source', '=', query.service));
  if (query.search) {
    const pattern = `%${likeEscaped(query.search)}%`;
    conditions.push(
      eb.or(
        (['message', 'source', 'path', 'context'] as const).map(
          (column) => sql<boolean>`lower(${sql.ref(column)}) LIKE lower(${pattern}) ESCAPE '\\'`,
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

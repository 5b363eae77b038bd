import { type DialectAdapter, Kysely, type Selectable, sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { ActivityLogsTable, SystemDatabase } from '../../db/schema.js';
import { textQuery } from '../../db/sql-text.js';

/** ActivityRow is one stored activity entry. */
export type ActivityRow = Selectable<ActivityLogsTable>;

// The insert's text, compiled once per engine (its placeholders differ): a write then passes only its values, and
// the statement cache finds the same string every time instead of hashing a new one.
const insertTexts = new WeakMap<DialectAdapter, string>();

function insertText(db: Kysely<SystemDatabase>): string {
  const adapter = db.getExecutor().adapter;
  let text = insertTexts.get(adapter);
  if (text === undefined) {
    text = sql`INSERT INTO activity_logs (account_id, action, resource, details, created_at)
      VALUES (${null}, ${null}, ${null}, ${null}, ${null})`.compile(db).sql;
    insertTexts.set(adapter, text);
  }
  return text;
}

/**
 * insertActivity stores one entry, through a Kysely or a scope (`deferred`: with Db.defer, where nothing reads it
 * back before its change commits). It runs in every record write, so it is a plain statement: the query builder's
 * insert took several times as long to build as the engine took to run it.
 */
export async function insertActivity(
  db: Kysely<SystemDatabase> | Db,
  row: Omit<ActivityRow, 'id'>,
  { deferred = false }: { deferred?: boolean } = {},
): Promise<void> {
  const kysely = db instanceof Kysely ? db : db.kysely;
  const query = textQuery(insertText(kysely), [row.account_id, row.action, row.resource, row.details, row.created_at]);
  if (db instanceof Kysely) await db.executeQuery(query);
  else await (deferred ? db.defer(query) : db.run(query));
}

/** listActivityPage returns an account's entries, newest first. */
export function listActivityPage(
  db: Kysely<SystemDatabase>,
  accountId: string,
  page: { limit: number; offset: number },
): Promise<ActivityRow[]> {
  return db
    .selectFrom('activity_logs')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** countActivity counts an account's entries. */
export async function countActivity(db: Kysely<SystemDatabase>, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('activity_logs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

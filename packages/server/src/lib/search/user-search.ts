import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { SystemDatabase } from '../../db/schema.js';

// The search of user lists (console accounts, an app's end users): a case-insensitive substring of the email or
// the username. Both columns are stored lower-cased (email, username_key), so the term is lower-cased and matched
// with LIKE on either engine; `%`, `_` and `\` in the term are matched literally.

/** containsPattern is a LIKE pattern matching `text` anywhere, lower-cased, with its wildcards escaped. */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** userSearchCondition matches rows of `table` whose email or username contains `search` (ignoring case). */
export function userSearchCondition<T extends 'accounts' | 'app_users'>(
  eb: ExpressionBuilder<SystemDatabase, T>,
  table: T,
  search: string,
): Expression<SqlBool> {
  // A term with a NUL matches nothing (PostgreSQL cannot hold one; SQLite's LIKE would stop reading at it).
  if (search.includes('\u0000')) return sql<boolean>`1 = 0`;
  const pattern = containsPattern(search);
  return eb.or([
    sql<boolean>`${sql.ref(`${table}.email`)} LIKE ${pattern} ESCAPE '\\'`,
    sql<boolean>`${sql.ref(`${table}.username_key`)} LIKE ${pattern} ESCAPE '\\'`,
  ]);
}

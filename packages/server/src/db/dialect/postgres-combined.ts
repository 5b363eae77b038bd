import type { CompiledQuery } from 'kysely';
import { preparedQuery } from '../sql-text.js';
import { WRITTEN_LAST } from './dialect.js';
import { nameOfText } from './postgres-named.js';

// Statements joined as data-modifying WITH clauses of one statement: PostgreSQL runs each to completion, whether or
// not anything reads it, all in one snapshot (none sees another's rows, which is why only statements whose results
// nobody reads are joined). Their `$n` placeholders are numbered on; a text with a quote could hold a `$n` that is
// not a placeholder, so such a statement is not joined; nor are more values than one statement may bind (65,535).
const MAX_COMBINED_PARAMETERS = 30_000;
const RETURNING = /\bRETURNING\b/i;

/** joinable tells whether statements may become clauses of one: no quoted text, not too many values. */
function joinable(all: readonly CompiledQuery[]): boolean {
  if (all.some((query) => query.sql.includes("'") || query.sql.includes('$$'))) return false;
  return all.reduce((n, query) => n + query.parameters.length, 0) <= MAX_COMBINED_PARAMETERS;
}

/** combinedStatements joins statements into one (SqlDialect.combined), or answers null where it cannot. */
export function combinedStatements(queries: readonly CompiledQuery[], last?: CompiledQuery): CompiledQuery | null {
  const all = last ? [...queries, last] : queries;
  if (!joinable(all)) return null;
  // With a last statement, the others are made to run before it: each returns its rows, and a condition on all of
  // them that PostgreSQL evaluates once, before reading the last one's, counts them. (Left unread, they would run
  // after it: a lock they take would then be taken after the last one's, against the order every write keeps.)
  if (last && (!RETURNING.test(last.sql) || queries.some((query) => RETURNING.test(query.sql)))) return null;
  const parameters: unknown[] = [];
  const clauses = all.map((query, i) => {
    const offset = parameters.length;
    parameters.push(...query.parameters);
    const text = offset === 0 ? query.sql : query.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
    if (query === last) return `basalt_last AS (${text})`;
    return last ? `basalt_${i} AS (${text} RETURNING 1)` : `basalt_${i} AS (${text})`;
  });
  const before = queries.map((_, i) => `(SELECT count(*) FROM basalt_${i})`).join(' + ');
  const text = last
    ? `WITH ${clauses.join(', ')} SELECT basalt_last.* FROM basalt_last WHERE ${before} >= 0`
    : `WITH ${clauses.join(', ')} SELECT 1`;
  // Deferred statements write Basalt's own tables, so the joined text's result never changes type: it may be kept
  // prepared by a name taken from the text (postgres-named.ts).
  return preparedQuery(text, parameters, nameOfText('basalt_deferred', text));
}

/**
 * combinedWrite (SqlDialect.combinedWrite) joins a one-row insert, the statements deferred after it and `last`:
 *   WITH basalt_row AS (insert), basalt_0 AS (… RETURNING 1), …, basalt_last AS (last)
 *   SELECT basalt_row.*, row_to_json(basalt_last) FROM basalt_row LEFT JOIN basalt_last …
 * Outside a transaction it commits whole or not at all, in one round trip. The deferred statements read the new
 * id from basalt_row where their values hold `idMark`; the insert's own values are the user's and are left as
 * they are. The others run before last, as in combinedStatements, which keeps the order of the locks.
 */
export function combinedWrite(
  insert: CompiledQuery,
  deferred: readonly CompiledQuery[],
  last: CompiledQuery,
  idMark: number,
): CompiledQuery | null {
  if (!joinable([insert, ...deferred, last])) return null;
  if (!RETURNING.test(insert.sql) || !RETURNING.test(last.sql) || deferred.some((q) => RETURNING.test(q.sql))) {
    return null;
  }
  const idText = `{"id":${idMark},`;
  const parameters: unknown[] = [];
  const bind = (value: unknown) => {
    parameters.push(value);
    return `$${parameters.length}`;
  };
  const clauseText = (query: CompiledQuery, marked: boolean) =>
    query.sql.replace(/\$(\d+)/g, (_, n: string) => {
      const value = query.parameters[Number(n) - 1];
      if (marked && value === idMark) return '(SELECT id FROM basalt_row)';
      if (marked && typeof value === 'string' && value.startsWith(idText)) {
        return `(${bind('{"id":')}::text || (SELECT id FROM basalt_row) || ${bind(value.slice(idText.length - 1))}::text)`;
      }
      return bind(value);
    });
  const clauses = [
    `basalt_row AS (${clauseText(insert, false)})`,
    ...deferred.map((query, i) => `basalt_${i} AS (${clauseText(query, true)} RETURNING 1)`),
    `basalt_last AS (${clauseText(last, true)})`,
  ];
  const before = deferred.map((_, i) => `(SELECT count(*) FROM basalt_${i})`).join(' + ') || '0';
  const text =
    `WITH ${clauses.join(', ')} SELECT basalt_row.*, row_to_json(basalt_last) AS "${WRITTEN_LAST}" ` +
    `FROM basalt_row LEFT JOIN basalt_last ON true WHERE ${before} >= 0`;
  return preparedQuery(text, parameters, nameOfText('basalt_write', text));
}

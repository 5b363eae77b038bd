import type { SqlDialect } from '../../db/dialect/dialect.js';
import { quoteIdentifier } from '../../db/identifiers.js';
import type { SqlText } from '../../db/sql-text.js';
import { type Condition, keysEqualSql, type OrderTerm, writeCondition, writeOrder } from '../../db/user-conditions.js';
import { quotedColumn, quotedTable, type UserTableShape } from '../../db/user-tables.js';
import { statement } from './records.store.js';

// The SQL of a list that carries related rows (embedded resources) in its own statement: one statement per
// request, none per row or per level. The page is read first, in a subquery, so that nothing is computed for the
// rows an OFFSET skips (as the hand-written join would); each of its rows then carries what it relates to as
// correlated subqueries: a to-one row as a JSON array of its values, to-many rows as a JSON array of such arrays
// (in their order, paged), a number of rows as count(*). Arrays rather than objects: no key repeats per row and no
// name is written as a string. Values travel as the engine stores them; record-related-reads.ts converts them as
// any row is converted. Another kind of subquery (an aggregate of the related rows) is one more case of
// writeRelated.

/** RelatedSql is one related read as written: checked, under its rules, named by an alias of its own. */
export interface RelatedSql {
  /** one: the row or NULL; many: the rows' arrays (NULL or [] for none); count: how many rows. */
  kind: 'one' | 'many' | 'count';
  table: UserTableShape;
  alias: string;
  /** Its rows are those whose `innerColumn` equals the outer row's `outerColumn`, or reached through `junction`. */
  innerColumn: string;
  outerColumn: string;
  junction?: RelatedJunctionSql;
  where?: Condition | undefined;
  order: OrderTerm[];
  limit: number | null;
  offset: number;
  /** The columns each row carries, first in its array; then the values of `related`, in order. */
  columns: readonly string[];
  related: RelatedSql[];
}

/** RelatedJunctionSql is a junction's rows: `parentColumn` = the outer row's id, `targetColumn` = the row's id. */
export interface RelatedJunctionSql {
  table: UserTableShape;
  alias: string;
  parentColumn: string;
  targetColumn: string;
  where?: Condition | undefined;
}

/** ROW_CHUNK: PostgreSQL takes at most 100 arguments per function; a longer row goes as arrays of this many values. */
export const ROW_CHUNK = 90;

const PAGE = '"_p"';
const LINK = '"_k"';

/** PageOptions are the list's own condition, order and paging (checked, rules included). */
export interface PageOptions {
  where: Condition | undefined;
  order: OrderTerm[];
  limit: number | null;
  offset: number;
}

/**
 * relatedListSql is the list's statement: the page's rows (`*`), then each related read's value as `_0`, `_1`…
 * The offset is bound, so that one text serves every page (prepared once on PostgreSQL, compiled once on SQLite).
 */
export function relatedListSql(
  dialect: SqlDialect,
  shape: UserTableShape,
  page: PageOptions,
  related: readonly RelatedSql[],
): SqlText {
  const out = statement(dialect).raw(`SELECT ${PAGE}.*`);
  related.forEach((read, i) => {
    out.raw(', ');
    writeRelated(out, dialect, read, PAGE, false);
    out.raw(` AS "_${i}"`);
  });
  out.raw(` FROM (SELECT * FROM ${quotedTable(shape.id)}`);
  if (page.where) {
    out.raw(' WHERE ');
    writeCondition(out, dialect, shape, page.where);
  }
  out.raw(' ORDER BY ');
  writeOrder(out, dialect, shape, page.order);
  writePaging(out, page.limit, page.offset);
  out.raw(`) AS ${PAGE} ORDER BY `);
  writeOrder(out, dialect, shape, page.order, PAGE);
  return out;
}

// LIMIT as a literal (a page size has few values), OFFSET bound. Both engines need a LIMIT before an OFFSET.
function writePaging(out: SqlText, limit: number | null, offset: number): void {
  if (limit === null && offset === 0) return;
  const count = limit ?? Number.MAX_SAFE_INTEGER;
  if (!Number.isSafeInteger(count) || !Number.isSafeInteger(offset) || count < 0 || offset < 0) {
    throw new Error(`writePaging: invalid limit ${limit} or offset ${offset}`);
  }
  out.raw(` LIMIT ${count} OFFSET `).value(offset);
}

// One related read's value for the row named `outer`, as a scalar subquery. Nested in another's JSON, a row or rows
// pass through the dialect's `nested` so that they stay JSON.
function writeRelated(out: SqlText, dialect: SqlDialect, read: RelatedSql, outer: string, nested: boolean): void {
  const json = dialect.userTables.relatedJson;
  const wrap = nested && read.kind !== 'count';
  if (wrap) out.raw(`${json.nested}(`);
  const paged = read.kind !== 'one' && (read.limit !== null || read.offset > 0);
  switch (read.kind) {
    case 'count':
      out.raw('(SELECT count(*) FROM ');
      break;
    case 'one':
      out.raw('(SELECT ');
      writeElement(out, dialect, read);
      out.raw(' FROM ');
      break;
    case 'many':
      out.raw(`(SELECT ${json.aggregate}(`);
      writeElement(out, dialect, read);
      out.raw(' ORDER BY ');
      writeOrder(out, dialect, read.table, read.order);
      out.raw(') FROM ');
      break;
  }
  if (paged) {
    const alias = quoteIdentifier(read.alias);
    out.raw(`(SELECT ${alias}.* FROM `);
    writeSource(out, dialect, read, outer);
    if (read.kind === 'many') {
      out.raw(' ORDER BY ');
      writeOrder(out, dialect, read.table, read.order);
    }
    writePaging(out, read.limit, read.offset);
    out.raw(`) AS ${alias}`);
  } else {
    writeSource(out, dialect, read, outer);
  }
  out.raw(')');
  if (wrap) out.raw(')');
}

// A row's values as a JSON array: its columns, then its own related reads (PostgreSQL: in chunks past ROW_CHUNK).
function writeElement(out: SqlText, dialect: SqlDialect, read: RelatedSql): void {
  const { array } = dialect.userTables.relatedJson;
  const alias = quoteIdentifier(read.alias);
  const count = read.columns.length + read.related.length;
  const chunked = count > ROW_CHUNK;
  out.raw(`${array}(`);
  for (let i = 0; i < count; i++) {
    if (chunked && i % ROW_CHUNK === 0) out.raw(`${i > 0 ? '), ' : ''}${array}(`);
    else if (i > 0) out.raw(', ');
    const column = read.columns[i];
    if (column !== undefined) out.raw(`${alias}.${quotedColumn(column)}`);
    else writeRelated(out, dialect, read.related[i - read.columns.length] as RelatedSql, alias, true);
  }
  if (chunked) out.raw(')');
  out.raw(')');
}

// FROM … of the related rows of the row `outer`, named by the read's alias. Through a junction, its rows and the
// related table's are each read in a subquery of their own, so that each condition reads only its own table's
// columns, and a pair of rows linked twice is there twice (as a join through the junction answers).
function writeSource(out: SqlText, dialect: SqlDialect, read: RelatedSql, outer: string): void {
  const alias = quoteIdentifier(read.alias);
  const table = `${quotedTable(read.table.id)} AS ${alias}`;
  const inner = `${alias}.${quotedColumn(read.innerColumn)}`;
  const outerKey = `${outer}.${quotedColumn(read.outerColumn)}`;
  const junction = read.junction;
  if (!junction) {
    out.raw(`${table} WHERE ${keysEqualSql(dialect, inner, read.innerColumn, outerKey, read.outerColumn)}`);
    writeAnd(out, dialect, read.table, read.where, alias);
    return;
  }
  const link = quoteIdentifier(junction.alias);
  out.raw(`(SELECT ${link}.${quotedColumn(junction.targetColumn)} AS ${LINK} FROM ${quotedTable(junction.table.id)}`);
  out.raw(` AS ${link} WHERE ${link}.${quotedColumn(junction.parentColumn)} = ${outerKey}`);
  writeAnd(out, dialect, junction.table, junction.where, link);
  out.raw(`) AS ${link} JOIN (SELECT * FROM ${table} WHERE 1 = 1`);
  writeAnd(out, dialect, read.table, read.where, alias);
  // The link is a reference column's value, met by the related table's id (innerColumn).
  out.raw(`) AS ${alias} ON ${keysEqualSql(dialect, inner, read.innerColumn, `${link}.${LINK}`, LINK)}`);
}

function writeAnd(
  out: SqlText,
  dialect: SqlDialect,
  shape: UserTableShape,
  where: Condition | undefined,
  scope: string,
) {
  if (!where) return;
  out.raw(' AND (');
  writeCondition(out, dialect, shape, where, scope);
  out.raw(')');
}

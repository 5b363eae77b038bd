import type { SqlDialect } from '../../db/dialect/dialect.js';
import { preparedQuery, type SqlText, textQuery } from '../../db/sql-text.js';
import { type Condition, operandType, quotedTable, type UserTableShape, writeCondition } from '../../db/user-tables.js';
import { tableStatementName } from './record-statement-names.js';
import { type RawRow, type RowSource, run, statement } from './records.store.js';

// A get by id, the record APIs' most frequent statement: its text is written once per table (and per rule) and,
// on PostgreSQL, prepared by a name that carries the table's schema version.

/**
 * selectRowById reads the row with one id: a point read, the record APIs' most frequent statement, written
 * without an order or paging (the id is unique); `also` is a condition the row must meet too (an access rule).
 */
export function selectRowById(
  db: RowSource,
  dialect: SqlDialect,
  shape: UserTableShape,
  id: number,
  also?: Condition,
): Promise<RawRow[]> {
  if (!also) {
    const { text, name } = pointReadOf(dialect, shape);
    return run(db, name === null ? textQuery<RawRow>(text, [id]) : preparedQuery<RawRow>(text, [id], name));
  }
  const owned = ownerPointReadOf(dialect, shape, also);
  if (owned) {
    const parameters = [id, (also as { value: string }).value];
    const { text, name } = owned;
    return run(db, name === null ? textQuery<RawRow>(text, parameters) : preparedQuery<RawRow>(text, parameters, name));
  }
  const out = ruledPointRead(dialect, shape, id, also);
  const name = ruledPointReadName(shape, out.text);
  return run(db, name === null ? out.compiled<RawRow>() : preparedQuery<RawRow>(out.text, out.parameters, name));
}

const pointRead = (dialect: SqlDialect, shape: UserTableShape, id: number) =>
  statement(dialect)
    .raw(`SELECT * FROM ${quotedTable(shape.id)} WHERE "id" = `)
    .value(id);

function ruledPointRead(dialect: SqlDialect, shape: UserTableShape, id: number, also: Condition): SqlText {
  const out = pointRead(dialect, shape, id).raw(' AND (');
  writeCondition(out, dialect, shape, also);
  return out.raw(')');
}

// A table's point read without a rule is one text for as long as its definition lasts: written once, and found in
// the driver's statement cache by a string whose hash is already known. Named by the table and its schema version,
// it is prepared once per connection (PostgreSQL): a changed schema brings a new name, as `SELECT *` then answers
// other columns.
interface PointRead {
  dialect: SqlDialect;
  text: string;
  name: string | null;
}

const pointReads = new WeakMap<UserTableShape, PointRead>();

function pointReadOf(dialect: SqlDialect, shape: UserTableShape): PointRead {
  const known = pointReads.get(shape);
  if (known?.dialect === dialect) return known;
  const { text } = pointRead(dialect, shape, 0);
  const name = shape.schemaVersion === undefined ? null : `basalt_get_${shape.id}_${shape.schemaVersion}`;
  const made = { dialect, text, name };
  pointReads.set(shape, made);
  return made;
}

// A point read under an access rule (an end user's get) is one text per rule of a table; each gets a name beside
// the plain one's (a rule's values are bound, so a table has only a few such texts).
const ruledPointReadName = (shape: UserTableShape, text: string) => tableStatementName(shape, 'get', text);

// An end user's get under an `own rows` rule (a text column equal to the user's id, record-rules.ts) is the most
// frequent ruled read: its text, the same for every user, is written once per table and column, like the plain
// point read's, and the user's id is bound.
const ownerPointReads = new WeakMap<UserTableShape, Map<string, PointRead>>();

function ownerPointReadOf(dialect: SqlDialect, shape: UserTableShape, also: Condition): PointRead | null {
  if (also.kind !== 'compare' || also.op !== 'eq' || also.path !== undefined || typeof also.value !== 'string')
    return null;
  if (operandType(shape, also.column, undefined) !== 'text') return null;
  let byColumn = ownerPointReads.get(shape);
  if (!byColumn) {
    byColumn = new Map();
    ownerPointReads.set(shape, byColumn);
  }
  const known = byColumn.get(also.column);
  if (known?.dialect === dialect) return known;
  const { text } = ruledPointRead(dialect, shape, 0, also);
  const made = { dialect, text, name: ruledPointReadName(shape, text) };
  byColumn.set(also.column, made);
  return made;
}

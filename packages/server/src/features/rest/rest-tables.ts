import type { ColumnType } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { likeMatches } from '../../db/like-pattern.js';
import type { Condition, OrderTerm } from '../../db/user-tables.js';
import type { Actor } from '../../lib/actor/actor.js';
import { isLimited } from '../records/records.service.js';
import { createTable, deleteTable, listTables, type TableResponse, updateTable } from '../tables/tables.service.js';
import { filtersCondition, orderTerms } from './rest-filters.js';
import { invalidTextRepresentation, RestQueryError, undefinedColumn } from './rest-query.errors.js';
import { hasFilters } from './rest-query.parse.js';
import type { RestQuery } from './rest-query.types.js';
import {
  appliedHeader,
  bodyOf,
  checkSingular,
  contentType,
  type RestReply,
  rangeHeader,
  readStatus,
} from './rest-response.js';
import { checkSelect, projectRows } from './rest-select.js';
import { invalidJson, missingWhere } from './rest-write.js';

// `/rest/v1/tables`: the actor's table definitions, as the tables service returns them.
// select = list, insert = create, patch = update, delete = drop. An account has few tables, so filters, order
// and range apply to the listed definitions in memory; each create, update and drop is the tables service's
// own transaction.

/** TABLES_RESOURCE is the reserved name of the definitions resource. */
export const TABLES_RESOURCE = 'tables';

type Row = Record<string, unknown>;

const asRow = (table: TableResponse): Row => ({ ...table });

const FIELDS: Readonly<Record<string, ColumnType>> = {
  id: 'number',
  name: 'text',
  description: 'text',
  schema: 'json',
  access: 'json',
  createdAt: 'date',
  updatedAt: 'date',
};

function fieldType(field: string): ColumnType | null {
  return Object.hasOwn(FIELDS, field) ? (FIELDS[field] ?? null) : null;
}

const unsupported = (what: string) =>
  new RestQueryError(
    400,
    '0A000',
    `${what} is not supported on ${TABLES_RESOURCE}`,
    null,
    'Filter tables with eq, neq, gt, gte, lt, lte, in, is, like or ilike on id, name, description, createdAt or updatedAt',
  );

function scalar(field: string, value: unknown): string | number {
  const type = fieldType(field);
  if (type === null) throw undefinedColumn(TABLES_RESOURCE, field);
  if (type === 'json') throw unsupported(`Filtering on "${field}"`);
  if (type !== 'number') return String(value ?? '');
  const n = typeof value === 'number' ? value : Number(String(value).trim() || Number.NaN);
  if (!Number.isFinite(n)) throw invalidTextRepresentation(`invalid input syntax for type bigint: "${String(value)}"`);
  return n;
}

const COMPARE: Record<string, (a: string | number, b: string | number) => boolean> = {
  eq: (a, b) => a === b,
  neq: (a, b) => a !== b,
  isdistinct: (a, b) => a !== b,
  gt: (a, b) => a > b,
  gte: (a, b) => a >= b,
  lt: (a, b) => a < b,
  lte: (a, b) => a <= b,
};

/** matches evaluates a condition against one table definition. */
function matches(row: Row, condition: Condition): boolean {
  if ('path' in condition && condition.path) throw unsupported('Filtering on a JSON path');
  switch (condition.kind) {
    case 'and':
      return condition.conditions.every((c) => matches(row, c));
    case 'or':
      return condition.conditions.some((c) => matches(row, c));
    case 'not':
      return !matches(row, condition.condition);
    case 'is': {
      if (typeof condition.value === 'boolean') throw unsupported('is.true / is.false');
      const value = row[condition.column];
      if (fieldType(condition.column) === null) throw undefinedColumn(TABLES_RESOURCE, condition.column);
      return condition.value === null ? value === null : value !== null;
    }
    case 'compare': {
      const value = row[condition.column];
      const wanted = scalar(condition.column, condition.value);
      return value !== null && (COMPARE[condition.op]?.(scalar(condition.column, value), wanted) ?? false);
    }
    case 'in': {
      const value = row[condition.column];
      const wanted = condition.values.map((v) => scalar(condition.column, v));
      return value !== null && wanted.includes(scalar(condition.column, value));
    }
    case 'pattern': {
      if (condition.op === 'match' || condition.op === 'imatch') throw unsupported(condition.op);
      const value = row[condition.column];
      scalar(condition.column, value);
      return typeof value === 'string' && likeMatches(value, condition.pattern, condition.op === 'ilike');
    }
    case 'contains':
    case 'search':
      throw unsupported(condition.op);
    case 'exists':
      throw unsupported('Embedding');
  }
}

function compareRows(a: Row, b: Row, order: OrderTerm[]): number {
  for (const term of order) {
    const x = a[term.column] ?? null;
    const y = b[term.column] ?? null;
    if (x === y) continue;
    if (x === null || y === null) return (x === null) === (term.nulls === 'first') ? -1 : 1;
    const sign = term.direction === 'asc' ? 1 : -1;
    return (x < y ? -1 : 1) * sign;
  }
  return 0;
}

async function selectedTables(db: Db, actor: Actor, query: RestQuery): Promise<TableResponse[]> {
  checkSelect(query.select, TABLES_RESOURCE, fieldType);
  const where = filtersCondition(query);
  const order = orderTerms(query.order);
  for (const term of order) {
    if (fieldType(term.column) === null) throw undefinedColumn(TABLES_RESOURCE, term.column);
    if (term.path) throw unsupported('Ordering by a JSON path');
  }
  let tables = await listTables(db, actor);
  if (where) tables = tables.filter((table) => matches({ ...table }, where));
  if (order.length > 0) tables.sort((a, b) => compareRows({ ...a }, { ...b }, order));
  return tables;
}

function writeReply(query: RestQuery, status: number, rows: TableResponse[], contentRange: string): RestReply {
  const headers = appliedHeader({ 'Content-Range': contentRange }, query.prefer);
  if (query.prefer.return !== 'representation') return { status, headers };
  headers['Content-Type'] = contentType(query.format);
  return {
    status: status === 204 ? 200 : status,
    headers,
    body: bodyOf(query.format, projectRows(rows.map(asRow), query.select)),
  };
}

const countOf = (query: RestQuery, n: number) => (query.prefer.count === null ? '*' : String(n));

/** serveTables answers every verb on /rest/v1/tables. */
export async function serveTables(
  db: Db,
  actor: Actor,
  method: string,
  query: RestQuery,
  body: unknown,
): Promise<RestReply> {
  // Definitions are the developer's: an app's signed-out callers and end users cannot see or change them (its
  // service key can, as the owner).
  if (isLimited(actor)) {
    throw new RestQueryError(actor.endUser ? 403 : 401, '42501', `permission denied for table ${TABLES_RESOURCE}`);
  }
  if (method === 'POST') {
    const input = Array.isArray(body) && body.length === 1 ? body[0] : body;
    if (typeof input !== 'object' || input === null || Array.isArray(input))
      throw invalidJson('Send one table definition as a JSON object');
    checkSelect(query.select, TABLES_RESOURCE, fieldType);
    const created = await createTable(db, actor, input);
    return writeReply(query, 201, [created], `*/${countOf(query, 1)}`);
  }
  if (method === 'PATCH' || method === 'DELETE') {
    if (method === 'PATCH' && (typeof body !== 'object' || body === null || Array.isArray(body))) throw invalidJson();
    if (!hasFilters(query)) throw missingWhere(method === 'PATCH' ? 'UPDATE' : 'DELETE');
    const targets = await selectedTables(db, actor, query);
    checkSingular(query.format, targets.length);
    const changed: TableResponse[] = [];
    for (const table of targets) {
      changed.push(
        method === 'PATCH' ? await updateTable(db, actor, table.id, body) : await deleteTable(db, actor, table.id),
      );
    }
    const range =
      method === 'PATCH'
        ? rangeHeader(0, changed.length, query.prefer.count === null ? null : changed.length)
        : `*/${countOf(query, changed.length)}`;
    return writeReply(query, 204, changed, range);
  }
  const tables = await selectedTables(db, actor, query);
  const { offset, limit } = query.range;
  const page = tables.slice(offset, limit === null ? undefined : offset + limit);
  checkSingular(query.format, page.length);
  const total = query.prefer.count === null ? null : tables.length;
  const headers = appliedHeader(
    {
      'Content-Type': contentType(query.format),
      'Content-Range': rangeHeader(offset, page.length, total),
      'Range-Unit': 'items',
    },
    { count: query.prefer.count },
  );
  const status = readStatus(offset, page.length, total);
  if (method === 'HEAD') return { status, headers };
  return { status, headers, body: bodyOf(query.format, projectRows(page.map(asRow), query.select)) };
}

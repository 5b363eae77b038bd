import type { Db } from '../../db/database.js';
import { columnTypeIn } from '../../db/user-tables.js';
import type { Actor } from '../../lib/actor/actor.js';
import {
  assertVisible,
  type CreateOptions,
  createRecords,
  deleteRecords,
  isLimited,
  type RecordInput,
  type RecordRow,
  updateRecords,
  upsertRecordsWithOutcome,
} from '../records/records.service.js';
import type { TableDefinition } from '../tables/table-definition.js';
import { type EmbedPlan, hasEmbeds, planEmbeds } from './rest-embed.js';
import { filtersCondition } from './rest-filters.js';
import { RestQueryError, undefinedColumn, unknownBodyColumn } from './rest-query.errors.js';
import { hasFilters } from './rest-query.parse.js';
import type { RestQuery } from './rest-query.types.js';
import { appliedHeader, bodyOf, checkSingular, contentType, type RestReply, rangeHeader } from './rest-response.js';
import { checkSelect, projectRows } from './rest-select.js';

// POST, PATCH and DELETE on /rest/v1/<table>. Every write goes through the records service
// (one transaction with history and activity); this file only maps the request onto it and shapes the reply.
// Everything a request names is checked before the write, so a bad select or on_conflict changes nothing;
// the singular Accept is checked inside the transaction, so a write of other than one row is rolled back.

/** invalidJson is PGRST102 for a body that is missing or not what the verb takes. */
export const invalidJson = (message = 'Empty or invalid json') => new RestQueryError(400, 'PGRST102', message);

/** missingWhere is 21000: PATCH and DELETE need a filter (pg-safeupdate, as Supabase enables it). */
export const missingWhere = (verb: 'UPDATE' | 'DELETE') =>
  new RestQueryError(400, '21000', `${verb} requires a WHERE clause`);

const isObject = (value: unknown): value is RecordInput =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function sameKeys(a: RecordInput, b: RecordInput): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key));
}

/** insertInputs reads a POST body: one object or an array of them, all with the same keys unless `columns` is given. */
function insertInputs(body: unknown, columns: string[] | null): RecordInput[] {
  if (isObject(body)) return [body];
  if (!Array.isArray(body)) throw invalidJson();
  if (!body.every(isObject)) throw invalidJson();
  const [first] = body;
  if (columns === null && first && !body.every((row) => sameKeys(first, row)))
    throw invalidJson('All object keys must match');
  return body;
}

// Inside the write's transaction: a singular response needs exactly one row, and rows returned to an app's caller
// must be ones its select rule shows (PostgreSQL's RLS refuses a RETURNING row it hides); either refusal rolls the
// write back.
function beforeCommitChecks(
  actor: Actor,
  table: TableDefinition,
  query: RestQuery,
): Pick<CreateOptions, 'beforeCommit'> {
  const singular = query.format === 'object';
  const returned = query.prefer.return === 'representation' && isLimited(actor);
  if (!singular && !returned) return {};
  return {
    beforeCommit: (rows) => {
      if (returned) assertVisible(actor, table, rows);
      if (singular) checkSingular('object', rows.length);
    },
  };
}

// A write's representation may embed related rows (`insert(…).select('*, author:authors(name)')`): resolved before
// the write (a bad embed changes nothing), read for the written rows after it.
async function embedsOf(db: Db, actor: Actor, table: TableDefinition, query: RestQuery): Promise<EmbedPlan | null> {
  return query.prefer.return === 'representation' && hasEmbeds(query.select)
    ? planEmbeds(db, actor, table, query)
    : null;
}

async function representation(query: RestQuery, rows: RecordRow[], embeds: EmbedPlan | null): Promise<unknown> {
  if (query.prefer.return !== 'representation') return undefined;
  const embedded = embeds ? await embeds.values(rows) : undefined;
  return bodyOf(query.format, projectRows(rows, query.select, embedded));
}

function writeHeaders(query: RestQuery, contentRange: string): Record<string, string> {
  const headers: Record<string, string> = { 'Content-Range': contentRange };
  if (query.prefer.return === 'representation') headers['Content-Type'] = contentType(query.format);
  return appliedHeader(headers, query.prefer);
}

// on_conflict names columns; the records service picks the one that decides (id or a unique column).
function conflictColumns(table: TableDefinition, query: RestQuery): string[] {
  const columns = query.onConflict ?? ['id'];
  for (const column of columns) if (columnTypeIn(table, column) === null) throw undefinedColumn(table.name, column);
  return columns;
}

/** insertRows answers POST: insert, or upsert with `Prefer: resolution=…` on on_conflict (default id). */
export async function insertRows(
  db: Db,
  actor: Actor,
  table: TableDefinition,
  query: RestQuery,
  body: unknown,
): Promise<RestReply> {
  const inputs = insertInputs(body, query.columns);
  checkSelect(query.select, table.name, (column) => columnTypeIn(table, column));
  const embeds = await embedsOf(db, actor, table, query);
  const options: CreateOptions = {
    ...beforeCommitChecks(actor, table, query),
    ...(query.columns ? { columns: query.columns } : {}),
  };
  const resolution = query.prefer.resolution;
  let rows: RecordRow[];
  // PostgREST answers 200 only to a merge-duplicates upsert that created nothing (every row merged, or no row
  // sent); an insert answers 201, and so does an ignore-duplicates upsert even when every row was a duplicate.
  let created = true;
  if (resolution === null) {
    rows = await createRecords(db, actor, table, inputs, options);
  } else {
    const onConflict = conflictColumns(table, query);
    const ignoreDuplicates = resolution === 'ignore-duplicates';
    const outcome = await upsertRecordsWithOutcome(db, actor, table, inputs, {
      ...options,
      onConflict,
      ignoreDuplicates,
    });
    rows = outcome.rows;
    created = ignoreDuplicates || outcome.inserted > 0;
  }
  const total = query.prefer.count === null ? '*' : String(rows.length);
  return {
    status: created ? 201 : 200,
    headers: writeHeaders(query, `*/${total}`),
    body: await representation(query, rows, embeds),
  };
}

/** updateRows answers PATCH: the body's columns set on every row the filters select. */
export async function updateRows(
  db: Db,
  actor: Actor,
  table: TableDefinition,
  query: RestQuery,
  body: unknown,
): Promise<RestReply> {
  if (!isObject(body)) throw invalidJson();
  for (const column of Object.keys(body)) {
    if (columnTypeIn(table, column) === null) throw unknownBodyColumn(table.name, column);
  }
  checkSelect(query.select, table.name, (column) => columnTypeIn(table, column));
  if (!hasFilters(query)) throw missingWhere('UPDATE');
  const embeds = await embedsOf(db, actor, table, query);
  const rows = await updateRecords(
    db,
    actor,
    table,
    filtersCondition(query),
    body,
    beforeCommitChecks(actor, table, query),
  );
  const payload = await representation(query, rows, embeds);
  return {
    status: payload === undefined ? 204 : 200,
    headers: writeHeaders(query, rangeHeader(0, rows.length, query.prefer.count === null ? null : rows.length)),
    body: payload,
  };
}

/** deleteRows answers DELETE: every row the filters select, returned as it was with return=representation. */
export async function deleteRows(db: Db, actor: Actor, table: TableDefinition, query: RestQuery): Promise<RestReply> {
  checkSelect(query.select, table.name, (column) => columnTypeIn(table, column));
  if (!hasFilters(query)) throw missingWhere('DELETE');
  const embeds = await embedsOf(db, actor, table, query);
  const rows = await deleteRecords(db, actor, table, filtersCondition(query), beforeCommitChecks(actor, table, query));
  const body = await representation(query, rows, embeds);
  const total = query.prefer.count === null ? '*' : String(rows.length);
  return { status: body === undefined ? 204 : 200, headers: writeHeaders(query, `*/${total}`), body };
}

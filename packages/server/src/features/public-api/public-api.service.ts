import { IDENTIFIER_PATTERN, TABLE_LIMITS } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { ApiError, badRequest } from '../../http/errors.js';
import { parseId, UNKNOWN_ID } from '../../http/ids.js';
import type { Actor } from '../../lib/actor/actor.js';
import { storedInputRow } from '../records/record-values.js';
import {
  countRecords,
  createRecord,
  deleteRecords,
  getRecord,
  listRecords,
  type RecordInput,
  type RecordRow,
  recordIdCondition,
  updateRecords,
} from '../records/records.service.js';
import type { TableDefinition } from '../tables/table-definition.js';
import { cachedTableByName, findTableByName, whenGone } from '../tables/tables.service.js';
import { publicErrorOf, recordNotFound, tableNotFound } from './public-api.errors.js';
import { parseListQuery } from './public-api.query.js';

// The public record API's operations. Every read
// and write goes through the records service (validation, history, activity, events); this file only finds the
// actor's table by name (from the definition cache), shapes PUT/PATCH, and words errors for this API.

/** RecordPage is one page of a list, with what the paging headers report. */
export interface RecordPage {
  records: RecordRow[];
  total: number;
  limit: number;
  offset: number;
}

// Bodies nested deeper than this are refused before anything walks them recursively (JSON columns included).
const MAX_BODY_DEPTH = 64;

async function tableOf(db: Db, actor: Actor, name: string): Promise<TableDefinition> {
  // A name that no table can have is not looked up.
  if (name.length > TABLE_LIMITS.tableNameMax || !IDENTIFIER_PATTERN.test(name)) throw tableNotFound(name);
  const table = await findTableByName(db, actor, name);
  if (!table) throw tableNotFound(name);
  return table;
}

function recordIdOf(table: TableDefinition, text: string): number {
  const id = parseId(text);
  if (id === UNKNOWN_ID) throw recordNotFound(table, text);
  return id;
}

function depthExceeds(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [node, depth] = item;
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(node))
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

function bodyOf(body: unknown): RecordInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('invalid_body', "The request body must be a JSON object of the table's fields");
  }
  if (depthExceeds(body, MAX_BODY_DEPTH)) {
    throw badRequest('invalid_body', `The request body is nested more than ${MAX_BODY_DEPTH} levels deep`);
  }
  return body as RecordInput;
}

// The records service stops at the first bad field; a refused body is checked again field by field (off the
// hot path) so that the answer names every bad field at once.
function withEveryFieldError(
  db: Db,
  table: TableDefinition,
  input: RecordInput,
  error: unknown,
  create: boolean,
): unknown {
  if (!(error instanceof ApiError) || error.status !== 400 || !error.details.fieldErrors) return error;
  const fieldErrors: Record<string, string[]> = {};
  for (const key of Object.keys(input)) {
    try {
      storedInputRow(db.dialect.name, table, { [key]: input[key] }, { from: 'json', mode: 'update' });
    } catch (fieldError) {
      if (fieldError instanceof ApiError) Object.assign(fieldErrors, fieldError.details.fieldErrors);
    }
  }
  if (create) {
    for (const column in table.schema) {
      const value = input[column];
      if (table.schema[column]?.required && (value === undefined || value === null)) {
        fieldErrors[column] ??= [`"${column}" is required`];
      }
    }
  }
  // The error the service raised stays first: the answer's code and message are about it.
  const merged = { ...error.details.fieldErrors };
  for (const [field, messages] of Object.entries(fieldErrors)) merged[field] ??= messages;
  return new ApiError(error.status, error.code, error.message, { ...error.details, fieldErrors: merged });
}

// Runs one operation on the actor's table of that name, and words its errors for this API.
async function onTable<T>(db: Db, actor: Actor, name: string, run: (table: TableDefinition) => Promise<T>): Promise<T> {
  // A table in this process's cache is used without waiting for a lookup.
  let table: TableDefinition | null = cachedTableByName(db, actor, name);
  try {
    table ??= await tableOf(db, actor, name);
    return await run(table);
  } catch (error) {
    throw publicErrorOf(table ? await whenGone(db, table, error, () => tableNotFound(name)) : error);
  }
}

/** listPublicRecords reads one page of a table: filters, order and paging from the raw query string. */
export function listPublicRecords(db: Db, actor: Actor, name: string, rawQuery: string): Promise<RecordPage> {
  return onTable(db, actor, name, async (table) => {
    const { where, order, limit, offset } = parseListQuery(rawQuery);
    const records = await listRecords(db, actor, table, { where, order, limit, offset });
    // A first page that is not full is the whole result: no count needed.
    const total = offset === 0 && records.length < limit ? records.length : await countRecords(db, actor, table, where);
    return { records, total, limit, offset };
  });
}

/** getPublicRecord reads one record by id, or throws 404. */
export function getPublicRecord(db: Db, actor: Actor, name: string, id: string): Promise<RecordRow> {
  return onTable(db, actor, name, async (table) => {
    const record = await getRecord(db, actor, table, recordIdOf(table, id));
    if (!record) throw recordNotFound(table, id);
    return record;
  });
}

/** createPublicRecord creates a record from a JSON object of the table's fields. */
export function createPublicRecord(db: Db, actor: Actor, name: string, body: unknown): Promise<RecordRow> {
  return onTable(db, actor, name, async (table) => {
    const input = bodyOf(body);
    try {
      return await createRecord(db, actor, table, input);
    } catch (error) {
      throw withEveryFieldError(db, table, input, error, true);
    }
  });
}

/**
 * updatePublicRecord changes one record: `merge` (PATCH) sets the fields sent; otherwise (PUT) the body
 * replaces every user column, so a column left out becomes NULL (refused when it is required).
 */
export function updatePublicRecord(
  db: Db,
  actor: Actor,
  name: string,
  id: string,
  body: unknown,
  { merge }: { merge: boolean },
): Promise<RecordRow> {
  return onTable(db, actor, name, async (table) => {
    const recordId = recordIdOf(table, id);
    const sent = bodyOf(body);
    const input = merge ? sent : { ...Object.fromEntries(Object.keys(table.schema).map((c) => [c, null])), ...sent };
    let updated: RecordRow[];
    try {
      updated = await updateRecords(db, actor, table, recordIdCondition(recordId), input);
    } catch (error) {
      throw withEveryFieldError(db, table, input, error, false);
    }
    // Nothing updated: either no such record, or nothing to change (a body of only id or timestamps).
    const record = updated[0] ?? (await getRecord(db, actor, table, recordId));
    if (!record) throw recordNotFound(table, id);
    return record;
  });
}

/** deletePublicRecord deletes one record, or throws 404. */
export function deletePublicRecord(db: Db, actor: Actor, name: string, id: string): Promise<void> {
  return onTable(db, actor, name, async (table) => {
    const deleted = await deleteRecords(db, actor, table, recordIdCondition(recordIdOf(table, id)));
    if (deleted.length === 0) throw recordNotFound(table, id);
  });
}

import type { CellValue } from '../../db/column-types/column-type.js';
import type { Db } from '../../db/database.js';
import type { TableDefinition } from '../../db/user-tables.js';
import type { Actor } from '../../lib/actor/actor.js';
import { checkCondition, checkOrder } from '../records/record-conditions.js';
import {
  findCallables,
  firstRow,
  mayCall,
  type PreparedCall,
  prepareCall,
  resultCount,
  resultRows,
  resultShape,
  scalarOf,
  writeResult,
  writtenCall,
} from '../sql-functions/sql-function-calls.js';
import type { SqlFunction } from '../sql-functions/sql-functions.service.js';
import { csvBody } from './rest-csv.js';
import { filtersCondition, orderTerms } from './rest-filters.js';
import { RestQueryError, undefinedColumn } from './rest-query.errors.js';
import { columnReferences, parseRestQuery } from './rest-query.parse.js';
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
import { convertArguments, namesGiven, pickFunction, type RpcRequest, rpcNotFound } from './rest-rpc-args.js';
import { projectRows } from './rest-select.js';

// /rest/v1/rpc/<name>: a call of one of the account's SQL functions (features/sql-functions), as PostgREST calls a
// database function. POST takes the arguments as a JSON object (`Prefer: params=single-object`: the whole body is the
// one json argument), GET and HEAD from the query string, where every other parameter is a filter. A function that
// returns rows takes `select`, filters, `order`, `limit`/`offset`, Range, `Prefer: count` and the singular Accept on
// its result, all in its one statement; a scalar or a row function answers its value.

export type { RpcRequest } from './rest-rpc-args.js';
export { rpcNotFound } from './rest-rpc-args.js';

// A text scalar goes out as a JSON string ("a"): the reply writes a string body as it is.
const jsonText = (value: unknown) => (typeof value === 'string' ? JSON.stringify(value) : value);

function readOnly(fn: SqlFunction): RestQueryError {
  const statement = fn.body.replace(/--[^\n]*/g, ' ').replace(/\/\*[\s\S]*?\*\//g, ' ');
  const verb = /\b(insert|update|delete)\b/i.exec(statement)?.[1]?.toUpperCase() ?? 'INSERT';
  return new RestQueryError(405, '25006', `cannot execute ${verb} in a read-only transaction`);
}

function permissionDenied(actor: Actor, fn: SqlFunction): RestQueryError {
  return new RestQueryError(actor.endUser ? 403 : 401, '42501', `permission denied for function ${fn.name}`);
}

/** serveRpc answers one call of a SQL function. */
export async function serveRpc(db: Db, actor: Actor, request: RpcRequest): Promise<RestReply> {
  const { method } = request;
  if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
    throw new RestQueryError(405, 'PGRST101', 'Only GET, HEAD or POST requests are allowed for rpc');
  }
  const fns = await findCallables(db, actor, request.name);
  if (fns.length === 0) throw rpcNotFound(request.name, namesGiven(request));
  const { fn, split } = pickFunction(fns, request);
  if (!mayCall(actor, fn)) throw permissionDenied(actor, fn);
  const args = convertArguments(fn, split);
  const query = parseRestQuery(split.rest, request.headers, { method });
  // PostgREST runs GET and HEAD in a read-only transaction, where a write fails with 25006 (405).
  if (fn.mode === 'write' && method !== 'POST') throw readOnly(fn);
  const call = await prepareCall(db, actor, fn, args);
  const head = method === 'HEAD';
  if (call.statement.kind === 'write') return writeReply(db, actor, call, query);
  if (call.columns === null || fn.returns.kind === 'row') {
    const row = await firstRow(db, call);
    const body = jsonText(call.columns === null ? scalarOf(db, call, row) : row);
    return { status: 200, headers: { 'Content-Type': contentType('json') }, ...(head ? {} : { body }) };
  }
  return readResult(db, call, query, head);
}

// The result's columns as a table, for the filter and order checks and CSV.
function resultTable(call: PreparedCall): TableDefinition {
  return {
    id: 0,
    accountId: call.fn.accountId,
    name: call.fn.name,
    description: null,
    schema: resultShape(call.columns ?? []).schema,
    schemaVersion: 0,
    createdAt: call.fn.createdAt,
    updatedAt: call.fn.updatedAt,
  };
}

function checkQuery(call: PreparedCall, query: RestQuery): void {
  const names = new Set((call.columns ?? []).map((c) => c.name));
  for (const item of query.select) {
    if (item.kind === 'embed' || item.kind === 'aggregate') {
      throw new RestQueryError(400, 'PGRST100', `A function's result takes columns in select, not ${item.kind}s`);
    }
  }
  for (const { column } of columnReferences(query)) {
    if (!names.has(column)) throw undefinedColumn(call.fn.name, column);
  }
}

async function readResult(db: Db, call: PreparedCall, query: RestQuery, head: boolean): Promise<RestReply> {
  checkQuery(call, query);
  const table = resultTable(call);
  const condition = filtersCondition(query);
  const where = condition ? checkCondition(db.dialect, table, condition) : undefined;
  const order = checkOrder(table, orderTerms(query.order));
  const { offset, limit } = query.range;
  const counting = query.prefer.count !== null;
  const singular = query.format === 'object';
  const rows = head
    ? []
    : await resultRows(db, call, { where, order, offset, limit: singular ? Math.min(limit ?? 2, 2) : limit });
  const total = counting || (head && counting) ? await resultCount(db, call, where) : null;
  const returned =
    head || (singular && counting)
      ? Math.max(0, Math.min(limit ?? Number.MAX_SAFE_INTEGER, (total ?? 0) - offset))
      : rows.length;
  checkSingular(query.format, singular && !counting ? rows.length : returned);
  const status = readStatus(offset, returned, total);
  const headers = appliedHeader(
    {
      'Content-Type': contentType(query.format),
      'Content-Range': rangeHeader(offset, returned, total),
      'Range-Unit': 'items',
    },
    { count: query.prefer.count },
  );
  if (head) return { status, headers };
  const projected = projectRows(rows, query.select);
  if (query.format === 'csv') return { status, headers, body: csvBody(table, query.select, projected) };
  return { status, headers, body: bodyOf(query.format, projected) };
}

// A write function's answer: what its RETURNING gives. A rows function's records are read as a result of their own
// (bound VALUES), inside the write's transaction, so select, filters, order, paging, counts, CSV and the singular
// Accept apply as to a read function's rows, and a singular Accept they do not meet rolls the write back, as
// PostgREST's transaction does.
async function writeReply(db: Db, actor: Actor, call: PreparedCall, query: RestQuery): Promise<RestReply> {
  const rows = call.columns !== null && call.fn.returns.kind === 'rows';
  if (rows) checkQuery(call, query);
  return writeResult(db, actor, call, async (scope, result) => {
    if (!rows) return { status: 200, headers: { 'Content-Type': contentType('json') }, body: jsonText(result) };
    const records = result as Array<Record<string, CellValue>>;
    const written = writtenCall(call, records);
    if (written) return readResult(scope, written, query, false);
    // Too many to bind back: only select and count apply (nothing else is cheap to get right in memory).
    if (filtersCondition(query) || query.order.length > 0 || query.range.limit !== null || query.range.offset > 0) {
      throw new RestQueryError(400, 'PGRST100', 'The function wrote too many records to filter or order its result');
    }
    checkSingular(query.format, records.length);
    const total = query.prefer.count !== null ? records.length : null;
    const headers = appliedHeader(
      { 'Content-Type': contentType(query.format), 'Content-Range': rangeHeader(0, records.length, total) },
      { count: query.prefer.count },
    );
    return { status: 200, headers, body: bodyOf(query.format, projectRows(records, query.select)) };
  });
}

import type { CellValue } from '../../db/column-types/column-type.js';
import { columnTypeOf } from '../../db/column-types/registry.js';
import type { Db } from '../../db/database.js';
import type { TableDefinition } from '../../db/user-tables.js';
import type { Actor } from '../../lib/actor/actor.js';
import { checkCondition, checkOrder } from '../records/record-conditions.js';
import {
  findCallable,
  firstRow,
  mayCall,
  type PreparedCall,
  prepareCall,
  resultCount,
  resultRows,
  resultShape,
  type SqlFunction,
  scalarOf,
} from '../sql-functions/sql-functions.service.js';
import { csvBody } from './rest-csv.js';
import { filtersCondition, orderTerms } from './rest-filters.js';
import { RestQueryError, undefinedColumn } from './rest-query.errors.js';
import type { RestHeaders } from './rest-query.headers.js';
import { columnReferences, parseRestQuery, queryPairs } from './rest-query.parse.js';
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
import { projectRows } from './rest-select.js';

// /rest/v1/rpc/<name>: a call of one of the account's SQL functions (features/sql-functions), as PostgREST calls a
// database function. POST takes the arguments as a JSON object (`Prefer: params=single-object`: the whole body is the
// one json argument), GET and HEAD from the query string, where every other parameter is a filter. A function that
// returns rows takes `select`, filters, `order`, `limit`/`offset`, Range, `Prefer: count` and the singular Accept on
// its result, all in its one statement; a scalar or a row function answers its value.

/** RpcRequest is one call: the verb, the function's name, the raw query string, the headers and the parsed body. */
export interface RpcRequest {
  method: string;
  name: string;
  rawQuery: string;
  headers: RestHeaders;
  body: unknown;
}

/** rpcNotFound is PGRST202: no function of that name takes those arguments (another account's is just as unknown). */
export function rpcNotFound(fn: string, parameters: string[], declared?: readonly string[]): RestQueryError {
  const named = parameters.length === 0 ? 'without parameters' : `with parameters ${parameters.join(', ')}`;
  const signature = parameters.length === 0 ? `${fn} without parameters` : `${fn}(${parameters.join(', ')})`;
  return new RestQueryError(
    404,
    'PGRST202',
    `Could not find the function public.${signature} in the schema cache`,
    `Searched for the function public.${fn} ${named} or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.`,
    // The function exists with other parameters: say which, as PostgREST does.
    declared ? `Perhaps you meant to call the function public.${fn}(${declared.join(', ')})` : null,
  );
}

const RESERVED = new Set(['apikey', 'select', 'order', 'limit', 'offset', 'columns', 'on_conflict']);
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// The argument names a request gives, for PGRST202's message when nothing matches.
function namesGiven(request: RpcRequest): string[] {
  if (isObject(request.body)) return Object.keys(request.body);
  return queryPairs(request.rawQuery)
    .map(([key]) => key)
    .filter((key) => !RESERVED.has(key));
}

function singleObject(headers: RestHeaders): boolean {
  const prefer = headers instanceof Headers ? headers.get('prefer') : headers.prefer;
  const text = Array.isArray(prefer) ? prefer.join(',') : (prefer ?? '');
  return /(^|,)\s*params\s*=\s*single-object\s*(,|$)/i.test(text);
}

interface Split {
  args: Record<string, unknown>;
  from: 'json' | 'form';
  rest: string;
}

// The arguments and the rest of the query string (the filters of a rows function).
function splitArguments(fn: SqlFunction, request: RpcRequest): Split {
  if (request.method === 'GET' || request.method === 'HEAD') {
    const names = new Set(fn.params.map((p) => p.name));
    const args: Record<string, unknown> = {};
    const rest = new URLSearchParams();
    for (const [key, value] of queryPairs(request.rawQuery)) {
      if (names.has(key)) args[key] = value;
      else rest.append(key, value);
    }
    return { args, from: 'form', rest: rest.toString() };
  }
  const body = request.body ?? {};
  if (singleObject(request.headers)) {
    const [only] = fn.params;
    if (fn.params.length !== 1 || only?.type !== 'json')
      throw rpcNotFound(
        fn.name,
        namesGiven(request),
        fn.params.map((p) => p.name),
      );
    return { args: { [only.name]: body }, from: 'json', rest: request.rawQuery };
  }
  if (!isObject(body)) {
    throw new RestQueryError(400, 'PGRST102', 'Invalid body: the arguments of a function call are one JSON object');
  }
  return { args: body, from: 'json', rest: request.rawQuery };
}

// Every declared parameter given, nothing else, each converted to its type (22P02 when it does not convert).
function convertArguments(fn: SqlFunction, request: RpcRequest, split: Split): Map<string, CellValue> {
  const given = Object.keys(split.args);
  const declared = new Set(fn.params.map((p) => p.name));
  if (given.length !== declared.size || given.some((name) => !declared.has(name))) {
    throw rpcNotFound(
      fn.name,
      namesGiven(request),
      fn.params.map((p) => p.name),
    );
  }
  const values = new Map<string, CellValue>();
  for (const param of fn.params) {
    const raw = split.args[param.name];
    if (raw === null) {
      values.set(param.name, null);
      continue;
    }
    const parsed = columnTypeOf(param.type).parseInput(raw, { from: split.from });
    if (!parsed.ok) {
      throw new RestQueryError(
        400,
        parsed.code ?? '22P02',
        `Argument "${param.name}" ${parsed.message}`,
        parsed.details,
      );
    }
    values.set(param.name, parsed.value);
  }
  return values;
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
  const fn = await findCallable(db, actor, request.name);
  if (!fn) throw rpcNotFound(request.name, namesGiven(request));
  if (!mayCall(actor, fn)) throw permissionDenied(actor, fn);
  const split = splitArguments(fn, request);
  const args = convertArguments(fn, request, split);
  const query = parseRestQuery(split.rest, request.headers, { method });
  const call = await prepareCall(db, actor, fn, args);
  const head = method === 'HEAD';
  if (call.columns === null || fn.returns.kind === 'row') {
    const row = await firstRow(db, call);
    const body = call.columns === null ? scalarOf(db, call, row) : row;
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

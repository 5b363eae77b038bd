import type { CellValue } from '../../db/column-types/column-type.js';
import { POSTGRES_TYPE_NAMES } from '../../db/column-types/postgres-type-names.js';
import { columnTypeOf } from '../../db/column-types/registry.js';
import type { SqlFunction } from '../sql-functions/sql-functions.service.js';
import { RestQueryError } from './rest-query.errors.js';
import type { RestHeaders } from './rest-query.headers.js';
import { queryPairs } from './rest-query.parse.js';

// Which function a call means and its arguments, as PostgREST finds them: the arguments a call names pick among the
// functions of that name (overloads): a function matches when the names given are its parameters without a default,
// plus any of those with one. One match is called; several are PGRST203 (300); none is PGRST202 (404).

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

/** rpcAmbiguous is PGRST203: several overloads take the arguments given. */
export function rpcAmbiguous(fns: SqlFunction[]): RestQueryError {
  const candidates = fns.map(
    (fn) => `public.${fn.name}(${fn.params.map((p) => `${p.name} => ${POSTGRES_TYPE_NAMES[p.type]}`).join(', ')})`,
  );
  return new RestQueryError(
    300,
    'PGRST203',
    `Could not choose the best candidate function between: ${candidates.join(', ')}`,
    null,
    'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
  );
}

const RESERVED = new Set(['apikey', 'select', 'order', 'limit', 'offset', 'columns', 'on_conflict']);
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isRead = (method: string) => method === 'GET' || method === 'HEAD';

function singleObject(headers: RestHeaders): boolean {
  const prefer = headers instanceof Headers ? headers.get('prefer') : headers.prefer;
  const text = Array.isArray(prefer) ? prefer.join(',') : (prefer ?? '');
  return /(^|,)\s*params\s*=\s*single-object\s*(,|$)/i.test(text);
}

/** Split is a call's arguments and the rest of its query string (the filters of a rows function). */
export interface Split {
  args: Record<string, unknown>;
  from: 'json' | 'form';
  rest: string;
}

// GET: the query parameters that name a parameter of one of the overloads are arguments, the rest filters.
function splitQuery(fns: SqlFunction[], request: RpcRequest): Split {
  const names = new Set(fns.flatMap((fn) => fn.params.map((p) => p.name)));
  const args: Record<string, unknown> = {};
  const rest = new URLSearchParams();
  for (const [key, value] of queryPairs(request.rawQuery)) {
    if (names.has(key) && !RESERVED.has(key)) args[key] = value;
    else rest.append(key, value);
  }
  return { args, from: 'form', rest: rest.toString() };
}

// PostgREST's rule: the names given, less the parameters with a default, are exactly those without one.
function takes(fn: SqlFunction, given: readonly string[]): boolean {
  const all = new Set(fn.params.map((p) => p.name));
  const required = fn.params.filter((p) => p.default === undefined).map((p) => p.name);
  return given.every((name) => all.has(name)) && required.every((name) => given.includes(name));
}

/** Picked is the function a call means and its arguments. */
export interface Picked {
  fn: SqlFunction;
  split: Split;
}

/** pickFunction finds the one overload the call's arguments name (PGRST202 when none, PGRST203 when several). */
export function pickFunction(fns: SqlFunction[], request: RpcRequest): Picked {
  const single = !isRead(request.method) && singleObject(request.headers);
  const split = isRead(request.method) ? splitQuery(fns, request) : bodySplit(request, single);
  const given = Object.keys(split.args);
  const matches = single
    ? fns.filter((fn) => fn.params.length === 1 && fn.params[0]?.type === 'json')
    : fns.filter((fn) => takes(fn, given));
  if (matches.length > 1) throw rpcAmbiguous(matches);
  const [fn] = matches;
  if (!fn) {
    const declared = fns[0]?.params.map((p) => p.name);
    throw rpcNotFound(request.name, namesGiven(request), declared);
  }
  if (single) return { fn, split: { ...split, args: { [fn.params[0]?.name ?? '']: request.body ?? {} } } };
  return { fn, split };
}

function bodySplit(request: RpcRequest, single: boolean): Split {
  const body = request.body ?? {};
  if (single) return { args: {}, from: 'json', rest: request.rawQuery };
  if (!isObject(body)) {
    throw new RestQueryError(400, 'PGRST102', 'Invalid body: the arguments of a function call are one JSON object');
  }
  return { args: body, from: 'json', rest: request.rawQuery };
}

/** namesGiven are the argument names a request gives, for PGRST202's message when no function of the name exists. */
export function namesGiven(request: RpcRequest): string[] {
  if (isObject(request.body)) return Object.keys(request.body);
  return queryPairs(request.rawQuery)
    .map(([key]) => key)
    .filter((key) => !RESERVED.has(key));
}

/** convertArguments converts each argument to its parameter's type (22P02 when it does not); a default fills a gap. */
export function convertArguments(fn: SqlFunction, split: Split): Map<string, CellValue> {
  const values = new Map<string, CellValue>();
  for (const param of fn.params) {
    const given = Object.hasOwn(split.args, param.name);
    const raw = given ? split.args[param.name] : param.default;
    if (raw === null || raw === undefined) {
      values.set(param.name, null);
      continue;
    }
    const parsed = columnTypeOf(param.type).parseInput(raw, { from: given ? split.from : 'json' });
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

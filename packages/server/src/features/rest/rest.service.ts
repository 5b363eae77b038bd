import { IDENTIFIER_PATTERN, TABLE_LIMITS } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import type { Actor } from '../../lib/actor/actor.js';
import { cachedTableByName, findTableByName, whenGone } from '../tables/tables.service.js';
import { RestQueryError, unacceptableMediaType } from './rest-query.errors.js';
import type { RestQuery } from './rest-query.types.js';
import { readRows } from './rest-read.js';
import type { RestReply } from './rest-response.js';
import { serveTables, TABLES_RESOURCE } from './rest-tables.js';
import { deleteRows, insertRows, updateRows } from './rest-write.js';

// The data API's operations: a parsed request on one resource of the actor — a table of
// theirs, or `tables`, their definitions — in, a RestReply out. No HTTP here; the routes write the reply.

export type { RestReply } from './rest-response.js';

/** RestMethod is a verb the data API serves. */
export type RestMethod = 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'DELETE';

/** RestRequest is one data-API request: the resource named in the path, the parsed query and the JSON body. */
export interface RestRequest {
  method: RestMethod;
  resource: string;
  query: RestQuery;
  /** The parsed JSON body; undefined when there was none. */
  body: unknown;
}

/** tableNotFound is PGRST205; another account's table of the same name is just as unknown. */
export const tableNotFound = (name: string) =>
  new RestQueryError(404, 'PGRST205', `Could not find the table 'public.${name}' in the schema cache`);

/** unsupportedMethod is PGRST117 for PUT and other verbs. */
export const unsupportedMethod = (method: string) =>
  new RestQueryError(405, 'PGRST117', `Unsupported HTTP method: ${method}`);

// A name no table can have needs no lookup.
const couldBeTable = (name: string) => name.length <= TABLE_LIMITS.tableNameMax && IDENTIFIER_PATTERN.test(name);

/** serveRest runs one data-API request for the actor. */
export async function serveRest(db: Db, actor: Actor, request: RestRequest): Promise<RestReply> {
  const { method, resource, query, body } = request;
  // CSV (`.csv()`) answers reads; a write's representation stays JSON.
  if (query.format === 'csv' && method !== 'GET' && method !== 'HEAD') throw unacceptableMediaType(['text/csv']);
  if (resource === TABLES_RESOURCE) return serveTables(db, actor, method, query, body);
  // The definition comes from the per-process cache: no schema read, nor a wait for one, on the hot path.
  const table = couldBeTable(resource)
    ? (cachedTableByName(db, actor, resource) ?? (await findTableByName(db, actor, resource)))
    : null;
  if (!table) throw tableNotFound(resource);
  try {
    switch (method) {
      case 'GET':
      case 'HEAD':
        return await readRows(db, actor, table, query, method === 'HEAD');
      case 'POST':
        return await insertRows(db, actor, table, query, body);
      case 'PATCH':
        return await updateRows(db, actor, table, query, body);
      case 'DELETE':
        return await deleteRows(db, actor, table, query);
    }
  } catch (error) {
    throw await whenGone(db, table, error, () => tableNotFound(resource));
  }
}

import type { Kysely, Selectable } from 'kysely';
import type { EdgeFunctionsTable, EdgeFunctionVersionsTable, SystemDatabase } from '../../db/schema.js';

// The SQL of edge functions and their deployed versions (the `edge_functions` and `edge_function_versions`
// system tables). Invocation logs and usage counters are in invocations.store.ts.

type Db = Kysely<SystemDatabase>;

/** FunctionRow is one stored function. */
export type FunctionRow = Selectable<EdgeFunctionsTable>;

/** VersionRow is one deployed version. */
export type VersionRow = Selectable<EdgeFunctionVersionsTable>;

/** NewFunctionRow is what creating a function stores. */
export interface NewFunctionRow {
  accountId: string;
  name: string;
  code: string;
  route: string;
  isActive: boolean;
  verifyJwt: boolean;
  now: string;
}

/** insertFunction stores a new function and returns it with its id. */
export function insertFunction(db: Db, row: NewFunctionRow): Promise<FunctionRow> {
  return db
    .insertInto('edge_functions')
    .values({
      account_id: row.accountId,
      name: row.name,
      name_key: row.name.toLowerCase(),
      code: row.code,
      route: row.route,
      is_active: row.isActive ? 1 : 0,
      verify_jwt: row.verifyJwt ? 1 : 0,
      deployed_version: null,
      last_deployed: null,
      created_at: row.now,
      updated_at: row.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** FunctionChanges are the columns an update may set. */
export interface FunctionChanges {
  name?: string;
  code?: string;
  route?: string;
  isActive?: boolean;
  verifyJwt?: boolean;
  deployedVersion?: number;
  lastDeployed?: string;
  now: string;
}

/** updateFunctionOf changes one of an account's functions and returns it, or undefined when it has none such. */
export function updateFunctionOf(
  db: Db,
  accountId: string,
  id: number,
  changes: FunctionChanges,
): Promise<FunctionRow | undefined> {
  return db
    .updateTable('edge_functions')
    .set({
      ...(changes.name !== undefined ? { name: changes.name, name_key: changes.name.toLowerCase() } : {}),
      ...(changes.code !== undefined ? { code: changes.code } : {}),
      ...(changes.route !== undefined ? { route: changes.route } : {}),
      ...(changes.isActive !== undefined ? { is_active: changes.isActive ? 1 : 0 } : {}),
      ...(changes.verifyJwt !== undefined ? { verify_jwt: changes.verifyJwt ? 1 : 0 } : {}),
      ...(changes.deployedVersion !== undefined ? { deployed_version: changes.deployedVersion } : {}),
      ...(changes.lastDeployed !== undefined ? { last_deployed: changes.lastDeployed } : {}),
      updated_at: changes.now,
    })
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .returningAll()
    .executeTakeFirst();
}

/** listFunctionsOf lists an account's functions by name. */
export function listFunctionsOf(db: Db, accountId: string): Promise<FunctionRow[]> {
  return db.selectFrom('edge_functions').selectAll().where('account_id', '=', accountId).orderBy('name_key').execute();
}

/** findFunctionOf reads one of an account's functions, or undefined. */
export function findFunctionOf(db: Db, accountId: string, id: number): Promise<FunctionRow | undefined> {
  return db
    .selectFrom('edge_functions')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

/** findFunctionByName reads an account's function of that name (case-insensitively), or undefined. */
export function findFunctionByName(db: Db, accountId: string, name: string): Promise<FunctionRow | undefined> {
  return db
    .selectFrom('edge_functions')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('name_key', '=', name.toLowerCase())
    .executeTakeFirst();
}

/** findFunctionByRoute reads an account's function that answers at a route, or undefined. */
export function findFunctionByRoute(db: Db, accountId: string, route: string): Promise<FunctionRow | undefined> {
  return db
    .selectFrom('edge_functions')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('route', '=', route)
    .executeTakeFirst();
}

/** listFunctionsAtRoute reads the functions of every account that answer at a route, at most `limit`. */
export function listFunctionsAtRoute(db: Db, route: string, limit: number): Promise<FunctionRow[]> {
  return db.selectFrom('edge_functions').selectAll().where('route', '=', route).orderBy('id').limit(limit).execute();
}

/** listFunctionsNamed reads the functions of every account that have a name (case-insensitively), at most `limit`. */
export function listFunctionsNamed(db: Db, name: string, limit: number): Promise<FunctionRow[]> {
  return db
    .selectFrom('edge_functions')
    .selectAll()
    .where('name_key', '=', name.toLowerCase())
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** deleteFunctionOf deletes one of an account's functions (its versions go with it) and returns it, or undefined. */
export function deleteFunctionOf(db: Db, accountId: string, id: number): Promise<FunctionRow | undefined> {
  return db
    .deleteFrom('edge_functions')
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .returningAll()
    .executeTakeFirst();
}

/** latestVersionNumber returns a function's highest version number, 0 when it has none. */
export async function latestVersionNumber(db: Db, functionId: number): Promise<number> {
  const row = await db
    .selectFrom('edge_function_versions')
    .select((eb) => eb.fn.max('version').as('latest'))
    .where('function_id', '=', functionId)
    .executeTakeFirst();
  return Number(row?.latest ?? 0);
}

/** insertVersion stores a deployed version. */
export async function insertVersion(
  db: Db,
  row: { functionId: number; version: number; code: string; bundle: string; now: string },
): Promise<void> {
  await db
    .insertInto('edge_function_versions')
    .values({
      function_id: row.functionId,
      version: row.version,
      code: row.code,
      bundle: row.bundle,
      created_at: row.now,
    })
    .execute();
}

/** VersionListing is a version without its bundle, and the bundle's size. */
export interface VersionListing {
  version: number;
  code: string;
  created_at: string;
  bundle_bytes: number;
}

/** listVersionsOf lists a function's versions, newest first, without their bundles. */
export function listVersionsOf(db: Db, functionId: number): Promise<VersionListing[]> {
  return db
    .selectFrom('edge_function_versions')
    .select((eb) => ['version', 'code', 'created_at', eb.fn<number>('length', ['bundle']).as('bundle_bytes')])
    .where('function_id', '=', functionId)
    .orderBy('version', 'desc')
    .execute();
}

/** findVersion reads one version of a function, bundle included, or undefined. */
export function findVersion(db: Db, functionId: number, version: number): Promise<VersionRow | undefined> {
  return db
    .selectFrom('edge_function_versions')
    .selectAll()
    .where('function_id', '=', functionId)
    .where('version', '=', version)
    .executeTakeFirst();
}

/** deleteVersionsBefore deletes a function's versions older than `keepFrom`, except `live`. */
export async function deleteVersionsBefore(db: Db, functionId: number, keepFrom: number, live: number): Promise<void> {
  await db
    .deleteFrom('edge_function_versions')
    .where('function_id', '=', functionId)
    .where('version', '<', keepFrom)
    .where('version', '!=', live)
    .execute();
}

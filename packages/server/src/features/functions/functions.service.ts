import {
  createEdgeFunctionSchema,
  type EdgeFunction,
  type EdgeFunctionVersion,
  rollbackEdgeFunctionSchema,
  updateEdgeFunctionSchema,
} from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { conflict, notFound } from '../../http/errors.js';
import { parseInput } from '../../http/validation.js';
import type { Actor } from '../../lib/actor/actor.js';
import { recordActivity } from '../activity/activity.service.js';
import { bundleFunction } from './function-bundle.js';
import {
  deleteFunctionOf,
  deleteVersionsBefore,
  type FunctionChanges,
  type FunctionRow,
  findFunctionByName,
  findFunctionByRoute,
  findFunctionOf,
  findVersion,
  insertFunction,
  insertVersion,
  latestVersionNumber,
  listFunctionsOf,
  listVersionsOf,
  updateFunctionOf,
} from './functions.store.js';
import { deleteInvocationsOf } from './invocations.store.js';

// Edge functions of an account: create, edit, deploy, roll back,
// delete. Editing changes the code being worked on; only deploying (or rolling back) changes what runs. A name and a
// route are unique per account: each account has its own route space, and a call finds the function of the account
// its key or token names (function-directory.ts). Every change is in the activity feed and publishes
// `function.changed`, so every node runs the deployed version from its next call.

/** VERSIONS_KEPT is how many deployed versions a function keeps for rollback (the live one is always kept). */
export const VERSIONS_KEPT = 20;

const RESOURCE = 'edgeFunctions';
const functionNotFound = () => notFound('Edge function not found', 'function_not_found');
const nameTaken = (name: string) => conflict(`A function named ${name} already exists`, 'function_name_taken');
const routeTaken = (route: string) =>
  conflict(`The route ${route} is already used by another of your functions`, 'function_route_taken');

/** toEdgeFunction renders a stored row as the API's EdgeFunction. */
export function toEdgeFunction(row: FunctionRow): EdgeFunction {
  return {
    id: Number(row.id),
    name: row.name,
    code: row.code,
    route: row.route,
    isActive: row.is_active === 1,
    verifyJwt: row.verify_jwt === 1,
    lastDeployed: row.last_deployed,
    deployedVersion: row.deployed_version === null ? null : Number(row.deployed_version),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const validId = (id: number) => Number.isSafeInteger(id) && id > 0;

// Name and route are checked first for a clear message; the unique indexes settle a race between two requests.
async function checkFree(db: Db, actor: Actor, { name, route }: { name?: string; route?: string }, self?: number) {
  if (name !== undefined) {
    const other = await findFunctionByName(db.kysely, actor.accountId, name);
    if (other && Number(other.id) !== self) throw nameTaken(name);
  }
  if (route !== undefined) {
    const other = await findFunctionByRoute(db.kysely, actor.accountId, route);
    if (other && Number(other.id) !== self) throw routeTaken(route);
  }
}

async function uniquely<T>(run: () => Promise<T>, input: { name?: string; route?: string }): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw error instanceof Error && /route/.test(error.message) && input.route
      ? routeTaken(input.route)
      : nameTaken(input.name ?? '');
  }
}

/** listFunctions lists the actor's functions by name. */
export async function listFunctions(db: Db, actor: Actor): Promise<EdgeFunction[]> {
  return (await listFunctionsOf(db.kysely, actor.accountId)).map(toEdgeFunction);
}

/** createFunction stores a new function (not deployed yet); the route defaults to /api/edge/<name>. */
export async function createFunction(db: Db, actor: Actor, input: unknown): Promise<EdgeFunction> {
  const parsed = parseInput(createEdgeFunctionSchema, input);
  const route = parsed.route ?? `/api/edge/${parsed.name}`;
  const now = new Date();
  const row = await uniquely(
    () =>
      db.transaction(async (scope) => {
        await checkFree(scope, actor, { name: parsed.name, route });
        const inserted = await insertFunction(scope.kysely, {
          accountId: actor.accountId,
          ...parsed,
          route,
          now: now.toISOString(),
        });
        await recordActivity(
          scope.kysely,
          { accountId: actor.accountId, action: 'CREATE', resource: RESOURCE, details: { name: parsed.name } },
          now,
        );
        scope.publish('function.changed', { accountId: actor.accountId, functionId: Number(inserted.id) });
        return inserted;
      }),
    { name: parsed.name, route },
  );
  return toEdgeFunction(row);
}

/** updateFunction changes a function's name, code, route or switches; what runs changes only on deploy. */
export async function updateFunction(db: Db, actor: Actor, id: number, input: unknown): Promise<EdgeFunction> {
  if (!validId(id)) throw functionNotFound();
  const patch = parseInput(updateEdgeFunctionSchema, input);
  const now = new Date();
  const row = await uniquely(
    () =>
      db.transaction(async (scope) => {
        await checkFree(scope, actor, patch, id);
        const changes: FunctionChanges = { ...definedOf(patch), now: now.toISOString() };
        const updated = await updateFunctionOf(scope.kysely, actor.accountId, id, changes);
        if (!updated) throw functionNotFound();
        await recordActivity(
          scope.kysely,
          { accountId: actor.accountId, action: 'UPDATE', resource: RESOURCE, details: { name: updated.name } },
          now,
        );
        scope.publish('function.changed', { accountId: actor.accountId, functionId: id });
        return updated;
      }),
    patch,
  );
  return toEdgeFunction(row);
}

function definedOf<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** deleteFunction deletes a function, its versions and its invocation log (usage counters stay for billing). */
export async function deleteFunction(db: Db, actor: Actor, id: number): Promise<void> {
  if (!validId(id)) throw functionNotFound();
  await db.transaction(async (scope) => {
    const row = await deleteFunctionOf(scope.kysely, actor.accountId, id);
    if (!row) throw functionNotFound();
    await deleteInvocationsOf(scope.kysely, id);
    await recordActivity(scope.kysely, {
      accountId: actor.accountId,
      action: 'DELETE',
      resource: RESOURCE,
      details: { name: row.name },
    });
    scope.publish('function.changed', { accountId: actor.accountId, functionId: id });
  });
}

/**
 * deployFunction bundles the function's current code (a syntax error or an unavailable import is a 400 with its
 * line and column), stores it as the next version, makes it the one that runs and sets lastDeployed.
 */
export async function deployFunction(db: Db, actor: Actor, id: number): Promise<EdgeFunction> {
  if (!validId(id)) throw functionNotFound();
  const before = await findFunctionOf(db.kysely, actor.accountId, id);
  if (!before) throw functionNotFound();
  // Outside the transaction: bundling takes a moment, and SQLite would hold its write lock meanwhile.
  const bundle = await bundleFunction(before.code);
  const now = new Date();
  const row = await db.transaction(async (scope) => {
    const version = (await latestVersionNumber(scope.kysely, id)) + 1;
    await insertVersion(scope.kysely, { functionId: id, version, code: before.code, bundle, now: now.toISOString() });
    const updated = await updateFunctionOf(scope.kysely, actor.accountId, id, {
      deployedVersion: version,
      lastDeployed: now.toISOString(),
      now: now.toISOString(),
    });
    if (!updated) throw functionNotFound();
    await deleteVersionsBefore(scope.kysely, id, version - VERSIONS_KEPT + 1, version);
    await recordActivity(
      scope.kysely,
      { accountId: actor.accountId, action: 'DEPLOY', resource: RESOURCE, details: { name: updated.name, version } },
      now,
    );
    scope.publish('function.changed', { accountId: actor.accountId, functionId: id });
    return updated;
  });
  return toEdgeFunction(row);
}

/** listFunctionVersions lists a function's kept versions, newest first. */
export async function listFunctionVersions(db: Db, actor: Actor, id: number): Promise<EdgeFunctionVersion[]> {
  if (!validId(id)) throw functionNotFound();
  const row = await findFunctionOf(db.kysely, actor.accountId, id);
  if (!row) throw functionNotFound();
  return (await listVersionsOf(db.kysely, id)).map((version) => ({
    version: Number(version.version),
    createdAt: version.created_at,
    bundleBytes: Number(version.bundle_bytes),
    live: Number(version.version) === row.deployed_version,
    code: version.code,
  }));
}

/** rollbackFunction makes a kept version the one that runs again, and puts its code back in the editor. */
export async function rollbackFunction(db: Db, actor: Actor, id: number, input: unknown): Promise<EdgeFunction> {
  if (!validId(id)) throw functionNotFound();
  const { version } = parseInput(rollbackEdgeFunctionSchema, input);
  const now = new Date();
  const row = await db.transaction(async (scope) => {
    const current = await findFunctionOf(scope.kysely, actor.accountId, id);
    if (!current) throw functionNotFound();
    const kept = await findVersion(scope.kysely, id, version);
    if (!kept) throw notFound(`Version ${version} of this function was not found`, 'function_version_not_found');
    const updated = await updateFunctionOf(scope.kysely, actor.accountId, id, {
      code: kept.code,
      deployedVersion: version,
      lastDeployed: now.toISOString(),
      now: now.toISOString(),
    });
    if (!updated) throw functionNotFound();
    await recordActivity(
      scope.kysely,
      {
        accountId: actor.accountId,
        action: 'DEPLOY',
        resource: RESOURCE,
        details: { name: updated.name, version, rollback: true },
      },
      now,
    );
    scope.publish('function.changed', { accountId: actor.accountId, functionId: id });
    return updated;
  });
  return toEdgeFunction(row);
}

/** findOwnFunction reads one of the actor's functions, or throws 404. */
export async function findOwnFunction(db: Db, actor: Actor, id: number): Promise<FunctionRow> {
  const row = validId(id) ? await findFunctionOf(db.kysely, actor.accountId, id) : undefined;
  if (!row) throw functionNotFound();
  return row;
}

import type { Db } from '../../db/database.js';
import { notFound } from '../../http/errors.js';
import { busCache } from '../../lib/cache/bus-cache.js';
import './function-events.js';
import {
  type FunctionRow,
  findFunctionByName,
  findFunctionByRoute,
  listFunctionsAtRoute,
  listFunctionsNamed,
} from './functions.store.js';

// Which function a call reaches, without reading the database on every call: routes and names are cached per
// process. Each account has its own names and routes: a call that names an account (its key or token, its app's
// keys or users' tokens: invoke-access.ts) reaches that account's function and no other, so another account's
// function of the same route is a 404 to it. A call that names none reaches the only function of that route or
// name on the instance, if there is exactly one. A bus cache (lib/cache): every committed change publishes
// `function.changed`, which empties it on every node.

/** LiveFunction is what a call needs of a function. */
export interface LiveFunction {
  id: number;
  accountId: string;
  name: string;
  route: string;
  isActive: boolean;
  verifyJwt: boolean;
  version: number | null;
}

const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;
const DIRECTORY = Symbol('function directory');

function toLive(row: FunctionRow): LiveFunction {
  return {
    id: Number(row.id),
    accountId: row.account_id,
    name: row.name,
    route: row.route,
    isActive: row.is_active === 1,
    verifyJwt: row.verify_jwt === 1,
    version: row.deployed_version === null ? null : Number(row.deployed_version),
  };
}

/** FunctionDirectory finds the function a call is for. */
export interface FunctionDirectory {
  /**
   * byPath finds the function whose route is the path or its longest prefix (a route's sub-paths reach it too): the
   * account's when one is known, else the only one of that route.
   */
  byPath(path: string, accountId: string | null): Promise<LiveFunction | null>;
  /** byName finds a function by name: the account's when one is known, else the only one of that name. */
  byName(name: string, accountId: string | null): Promise<LiveFunction | null>;
}

// The only function of the instance that `rows` (at most two) hold, or a 404 that says how to name the account.
function onlyOf(rows: FunctionRow[], what: string): LiveFunction | null {
  if (rows.length > 1) {
    throw notFound(
      `More than one account has a function ${what}: call it with your app's key or your token, which name the account`,
      'function_ambiguous',
    );
  }
  return rows[0] ? toLive(rows[0]) : null;
}

const SEPARATOR = '\u0000';

/** functionDirectoryOf returns this process's directory of one open database, kept exact by the bus. */
export function functionDirectoryOf(db: Db): FunctionDirectory {
  return db.state(DIRECTORY, () => {
    // Keys: `route|name`, the account ('' for a caller that names none), and the route or lower-cased name. Any
    // change of functions forgets every entry: a function's route or name may move to another key.
    const functions = busCache<LiveFunction | null>(db, {
      load: async (key) => {
        const [kind, accountId, what = ''] = key.split(SEPARATOR);
        if (kind === 'route') {
          if (!accountId) return onlyOf(await listFunctionsAtRoute(db.kysely, what, 2), `at ${what}`);
          const row = await findFunctionByRoute(db.kysely, accountId, what);
          return row ? toLive(row) : null;
        }
        if (!accountId) return onlyOf(await listFunctionsNamed(db.kysely, what, 2), `named ${what}`);
        const row = await findFunctionByName(db.kysely, accountId, what);
        return row ? toLive(row) : null;
      },
      invalidatedBy: { 'function.changed': () => 'all', 'account.deleted': () => 'all' },
      ttlMs: TTL_MS,
      maxEntries: MAX_ENTRIES,
    });
    const keyOf = (kind: string, accountId: string | null, what: string) =>
      [kind, accountId ?? '', what].join(SEPARATOR);
    return {
      async byPath(path, accountId) {
        const segments = path.split('/');
        // '/api/edge/a/b' → '/api/edge/a/b', then '/api/edge/a'.
        for (let end = segments.length; end > 3; end--) {
          const fn = await functions.get(keyOf('route', accountId, segments.slice(0, end).join('/')));
          if (fn) return fn;
        }
        return null;
      },
      byName: async (name, accountId) => functions.get(keyOf('name', accountId, name.toLowerCase())),
    };
  });
}

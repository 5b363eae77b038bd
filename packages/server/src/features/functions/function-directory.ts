import type { Db } from '../../db/database.js';
import { notFound } from '../../http/errors.js';
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
// name on the instance, if there is exactly one. Every committed change publishes `function.changed`, which empties the cache on every node; the TTL is
// only a backstop for a lost event, and nothing is cached while the bus may be missing events.

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

interface Entry {
  fn: LiveFunction | null;
  expiresAt: number;
}

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

/** functionDirectoryOf returns this process's directory of one open database, kept exact by the bus. */
export function functionDirectoryOf(db: Db): FunctionDirectory {
  return db.state(DIRECTORY, () => {
    const entries = new Map<string, Entry>();
    let generation = 0;
    const clear = () => {
      entries.clear();
      generation++;
    };
    db.bus.subscribe('function.changed', clear);
    // Deleting an account deletes its functions without a function.changed each.
    db.bus.subscribe('account.deleted', clear);
    db.bus.onReset(clear);

    async function cached(key: string, read: () => Promise<LiveFunction | null>): Promise<LiveFunction | null> {
      const hit = entries.get(key);
      if (hit && hit.expiresAt > Date.now() && db.bus.reliable) return hit.fn;
      const seen = generation;
      const fn = await read();
      if (seen === generation && db.bus.reliable) {
        if (entries.size >= MAX_ENTRIES) entries.clear();
        entries.set(key, { fn, expiresAt: Date.now() + TTL_MS });
      }
      return fn;
    }

    // The only function of the instance that `rows` (at most two) hold, or a 404 that says how to name the account.
    const onlyOf = (rows: FunctionRow[], what: string) => {
      if (rows.length > 1) {
        throw notFound(
          `More than one account has a function ${what}: call it with your app's key or your token, which name the account`,
          'function_ambiguous',
        );
      }
      return rows[0] ? toLive(rows[0]) : null;
    };

    return {
      async byPath(path, accountId) {
        const segments = path.split('/');
        // '/api/edge/a/b' → '/api/edge/a/b', then '/api/edge/a'.
        for (let end = segments.length; end > 3; end--) {
          const route = segments.slice(0, end).join('/');
          const fn = await cached(`route\u0000${accountId ?? ''}\u0000${route}`, async () => {
            if (accountId === null) return onlyOf(await listFunctionsAtRoute(db.kysely, route, 2), `at ${route}`);
            const row = await findFunctionByRoute(db.kysely, accountId, route);
            return row ? toLive(row) : null;
          });
          if (fn) return fn;
        }
        return null;
      },
      byName(name, accountId) {
        return cached(`name\u0000${accountId ?? ''}\u0000${name.toLowerCase()}`, async () => {
          if (accountId !== null) {
            const row = await findFunctionByName(db.kysely, accountId, name);
            return row ? toLive(row) : null;
          }
          return onlyOf(await listFunctionsNamed(db.kysely, name, 2), `named ${name}`);
        });
      },
    };
  });
}

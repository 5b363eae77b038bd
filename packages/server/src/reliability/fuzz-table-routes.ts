import fc from 'fast-check';
import type { Callers } from '../http/caller.js';
import type { ErrorFamily } from '../http/error-family.js';
import { methodsOf, type Route } from '../http/routes/route.js';
import { authHints } from './fuzz-auth-routes.js';
import { bodyOf, type Credentials, idSegment, objectOf } from './fuzz-inputs.js';
import { queryString } from './fuzz-queries.js';
import {
  COLUMNS,
  ITEMS,
  type KnownIds,
  type RouteHint,
  type RouteSpec,
  record,
  records,
  schemaChange,
  segment,
  tableBody,
} from './fuzz-routes.js';

// Every route of the route table is fuzzed: its verbs, its URL with each parameter filled (an id the account
// owns, an unknown one or a hostile segment), and who usually calls it, read from its admission steps. A new
// route is fuzzed the day it joins the table. What a route's body or query reads, when generic hostile values
// would rarely get past its validation, is a hint below, keyed by the route's pattern; a hint naming no route
// of the table fails the test (hintsWithoutRoute), so hints cannot outlive their routes.

const pageQuery = fc.oneof(
  fc.constantFrom('?page=1&limit=10', '?page=0', '?limit=100000', '?tableId=abc', '?page=1e3'),
  queryString(['page', 'limit', 'tableId', 'level', 'search', 'from', 'to', 'source']),
);
const tableName = fc.oneof(
  { arbitrary: fc.constant(ITEMS.name), weight: 4 },
  { arbitrary: fc.oneof(segment, fc.constantFrom('tables', 'keys', 'nope')), weight: 1 },
);
const listQuery = fc.oneof(
  fc.constantFrom('?limit=1001', '?limit=-1', '?offset=-5', '?orderBy=nope', '?order=sideways', '?limit=1e2'),
  queryString([...COLUMNS, 'limit', 'offset', 'orderBy', 'order']),
);
const publicCollection = { params: { name: tableName }, query: listQuery, body: bodyOf(records), weight: 2 };
const publicOne = { params: { name: tableName }, body: bodyOf(record) };

/** hintsOf are the routes' hints, by URL pattern (every method) or by `METHOD pattern`. */
export function hintsOf(known: KnownIds): Record<string, RouteHint> {
  return {
    'POST /api/tables': { body: bodyOf(tableBody) },
    'PATCH /api/tables/:id': { body: bodyOf(schemaChange) },
    '/api/tables/:id/schema': { body: bodyOf(schemaChange) },
    '/api/tables/:id/schema/preview': { body: bodyOf(schemaChange) },
    '/api/checkpoints': {
      query: pageQuery,
      body: bodyOf(objectOf({ tableId: idSegment(known.tables), name: fc.string(), description: fc.string() })),
    },
    '/api/history': { query: pageQuery },
    '/api/logs': { query: pageQuery },
    '/api/activity': { query: pageQuery },
    'POST /api/keys': { body: bodyOf(objectOf({ name: fc.string({ maxLength: 120 }) })) },
    '/rest/v1/:table': {
      params: { table: fc.oneof({ arbitrary: fc.constant(ITEMS.name), weight: 3 }, { arbitrary: segment, weight: 1 }) },
      query: queryString(COLUMNS),
      body: bodyOf(records),
      weight: 4,
    },
    '/rest/v1/rpc/:fn': { params: { fn: fc.oneof(segment, fc.constantFrom('fn', '')) }, body: bodyOf(records) },
    '/api/table/:name': publicCollection,
    '/api/:name': publicCollection,
    '/api/table/:name/:id': publicOne,
    '/api/:name/:id': publicOne,
    'POST /api/backups/:id/restore': { skip: 'a restore replaces the whole instance (backup-faults.test.ts)' },
    'POST /api/account/import': { skip: "an import replaces the account's data (portability tests)" },
    ...authHints(known),
  };
}

// The ids of a path parameter, by the collection it follows (`/api/keys/:id`): the account's own, then any.
function paramArbitrary(url: string, param: string, known: KnownIds): fc.Arbitrary<string> {
  const before =
    url
      .slice(0, url.indexOf(`:${param}`))
      .split('/')
      .filter(Boolean)
      .at(-1) ?? '';
  const owned: Record<string, () => string[]> = {
    tables: known.tables,
    keys: known.keys,
    history: known.changes,
    checkpoints: known.checkpoints,
  };
  const ids = owned[before];
  if (ids) return idSegment(ids);
  return fc.oneof(
    idSegment(() => []),
    segment,
  );
}

function pathOf(route: Route, hint: RouteHint, known: KnownIds): fc.Arbitrary<string> {
  const parts = route.url.split('/').map((part): fc.Arbitrary<string> => {
    if (part === '*') return fc.oneof(segment, fc.constantFrom('my-function', 'a/b/c', ''));
    if (!part.startsWith(':')) return fc.constant(part);
    const param = part.slice(1);
    return hint.params?.[param] ?? paramArbitrary(route.url, param, known);
  });
  return fc.tuple(...parts).map((segments) => segments.join('/'));
}

// Who usually calls a route: its caller step says (the public API's may follow a step of its own).
function usualCaller(route: Route, callers: Callers): Credentials {
  for (const step of route.admit) {
    if (step === callers.user || step === callers.admin || step === callers.socketUser) return 'user';
    if (step === callers.account) return 'api-key';
    if (step === callers.anyone) return route.family === 'functions' || route.family === 'auth' ? 'anon-key' : 'user';
  }
  return 'none';
}

const hintKeys = (route: Route): string[] => [route.url, ...methodsOf(route).map((m) => `${m} ${route.url}`)];

/** TableFamily is one family of the route table's routes, fuzzed together. */
export interface TableFamily {
  family: ErrorFamily;
  routes: Record<string, RouteSpec>;
}

/** tableFamilies turns the route table into fuzzed routes, one group per error family. */
export function tableFamilies(table: readonly Route[], callers: Callers, known: KnownIds): TableFamily[] {
  const hints = hintsOf(known);
  const families = new Map<ErrorFamily, Record<string, RouteSpec>>();
  for (const route of table) {
    const hint: RouteHint = Object.assign({}, ...hintKeys(route).map((key) => hints[key] ?? {}));
    if (hint.skip) continue;
    const methods = methodsOf(route).filter((m) => m !== 'OPTIONS');
    const spec: RouteSpec = {
      methods: methods.length > 0 ? methods : ['OPTIONS'],
      path: pathOf(route, hint, known),
      as: hint.as ?? usualCaller(route, callers),
      ...(hint.query ? { query: hint.query } : {}),
      ...(hint.body ? { body: hint.body } : {}),
      ...(hint.weight ? { weight: hint.weight } : {}),
    };
    const routes = families.get(route.family) ?? {};
    routes[`${methods.join(',')} ${route.url}`] = spec;
    families.set(route.family, routes);
  }
  return [...families].map(([family, routes]) => ({ family, routes }));
}

/** hintsWithoutRoute lists the hints that name no route of the table (renamed or removed routes). */
export function hintsWithoutRoute(table: readonly Route[], known: KnownIds): string[] {
  const keys = new Set(table.flatMap(hintKeys));
  return Object.keys(hintsOf(known)).filter((key) => !keys.has(key));
}

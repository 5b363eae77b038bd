/**
 * RESERVED_TABLE_NAMES are names a table may not take (compared case-insensitively): Basalt's own `/api`
 * routes (a table is also reachable as `/api/<name>`), `/rest/v1/tables` and PostgREST's reserved paths.
 * Hyphenated and dotted entries can never pass the name rules; they are listed so the route list reads complete.
 */
export const RESERVED_TABLE_NAMES: readonly string[] = [
  'account',
  'achievements',
  'activity',
  'admin',
  'api',
  'app',
  'auth',
  'backups',
  'billing',
  'checkpoints',
  'config',
  'csrf-token',
  'csrf_token',
  'docs',
  'documentation',
  'edge',
  'edge-functions',
  'edge_functions',
  'functions',
  'graphql',
  'health',
  'history',
  'insights',
  'jwks',
  'keys',
  'logs',
  'metrics',
  'openapi',
  'openapi.json',
  'profile',
  'projects',
  'realtime',
  'rest',
  'rpc',
  'schema',
  'secrets',
  'settings',
  'shared-tables',
  'sql',
  'stats',
  'storage',
  'table',
  'tables',
  'types',
  'types.ts',
  'user',
  'users',
];

const reservedTableNames = new Set(RESERVED_TABLE_NAMES);

/** isReservedTableName tells whether a name is reserved for Basalt's routes, ignoring case. */
export function isReservedTableName(name: string): boolean {
  return reservedTableNames.has(name.toLowerCase());
}

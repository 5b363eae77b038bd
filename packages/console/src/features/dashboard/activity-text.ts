import type { ActivityEntry } from '@basalt/shared';

// Activity entries as sentences ("Table created: {name}", "New user registered",
// "User logged in", "API key created").

function detail(entry: ActivityEntry, key: string): string | null {
  const value = entry.details?.[key];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
}

const PAST: Record<string, string> = {
  CREATE: 'created',
  UPDATE: 'updated',
  DELETE: 'deleted',
  REGISTER: 'registered',
  LOGIN: 'logged in',
  LOGOUT: 'logged out',
};

/** describeActivity is the one-line text of an activity entry. */
export function describeActivity(entry: ActivityEntry): string {
  const { action, resource } = entry;
  const past = PAST[action] ?? action.toLowerCase();
  if (resource === 'tables') {
    const name = detail(entry, 'name') ?? detail(entry, 'tableName');
    return name ? `Table ${past}: ${name}` : `Table ${past}`;
  }
  if (resource.startsWith('table.')) {
    const table = detail(entry, 'tableName') ?? resource.slice('table.'.length);
    const count = Number(detail(entry, 'count') ?? 1);
    const what = count > 1 ? `${count.toLocaleString('en-US')} records` : 'Record';
    const where = action === 'DELETE' ? 'from' : 'in';
    // A write by one of the app's users, or a signed-out visitor of the app, says so.
    const by = entry.details?.by;
    const through =
      typeof by === 'object' && by !== null
        ? 'endUserId' in by && by.endUserId
          ? ' by an app user'
          : ' by an app visitor'
        : '';
    return `${what} ${past} ${where} ${table}${through}`;
  }
  if (resource === 'app_users') {
    const name = detail(entry, 'username');
    if (action === 'REGISTER') return name ? `App user signed up: ${name}` : 'App user signed up';
    return name ? `App user ${past}: ${name}` : `App user ${past}`;
  }
  if (action === 'REGISTER') return 'New user registered';
  if (action === 'LOGIN') return 'User logged in';
  if (action === 'LOGOUT') return 'User logged out';
  if (resource === 'sql_functions') {
    const name = detail(entry, 'name');
    return name ? `SQL function ${past}: ${name}` : `SQL function ${past}`;
  }
  if (resource === 'apiKeys') {
    const name = detail(entry, 'name');
    return name ? `API key ${past}: ${name}` : `API key ${past}`;
  }
  return `${resource} ${past}`;
}

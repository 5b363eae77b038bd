import type { ConnectionDetails, DatabaseConnection } from '@basalt/shared';
import { badRequest } from '../../http/errors.js';
import type { TargetEndpoint } from './sql-target.js';

// A connection as the user gives it (a URL or details) → where to connect (TargetEndpoint), and → what may be
// shown again (the URL with its password as ****, the details without the password).

/** ConnectionSpec is what a connection's sealed secret holds. */
export interface ConnectionSpec {
  connectionString?: string;
  connectionDetails?: ConnectionDetails;
}

type Engine = 'POSTGRESQL' | 'MYSQL';

const SCHEMES: Record<Engine, string[]> = { POSTGRESQL: ['postgres:', 'postgresql:'], MYSQL: ['mysql:', 'mariadb:'] };
const DEFAULT_PORTS: Record<Engine, number> = { POSTGRESQL: 5432, MYSQL: 3306 };
const MASK = '****';

function parseUrl(text: string, engine: Engine): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw badRequest('invalid_connection_string', 'The connection string is not a valid URL');
  }
  if (!SCHEMES[engine].includes(url.protocol)) {
    throw badRequest(
      'invalid_connection_string',
      engine === 'POSTGRESQL'
        ? 'A PostgreSQL connection string starts with postgres:// or postgresql://'
        : 'A MySQL connection string starts with mysql:// or mariadb://',
    );
  }
  if (!url.hostname) throw badRequest('invalid_connection_string', 'The connection string names no host');
  return url;
}

/** endpointOf is where a connection points, or a 400 naming what is wrong with it. */
export function endpointOf(engine: Engine, spec: ConnectionSpec): TargetEndpoint {
  if (spec.connectionString) {
    const url = parseUrl(spec.connectionString, engine);
    const ssl = url.searchParams.get('sslmode') ?? url.searchParams.get('ssl') ?? '';
    return {
      engine,
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: Number(url.port || DEFAULT_PORTS[engine]),
      database: decodeURIComponent(url.pathname.replace(/^\//, '')) || null,
      user: url.username ? decodeURIComponent(url.username) : null,
      password: url.password ? decodeURIComponent(url.password) : null,
      ssl: /^(require|verify-ca|verify-full|true|1)$/i.test(ssl),
    };
  }
  const details = spec.connectionDetails;
  if (!details) throw badRequest('invalid_connection', 'Give either a connection string or connection details');
  return {
    engine,
    host: details.host.trim(),
    port: details.port ?? DEFAULT_PORTS[engine],
    database: details.database || null,
    user: details.username || null,
    password: details.password || null,
    ssl: details.ssl ?? false,
  };
}

/** maskedStringOf is a connection string with its password replaced by ****. */
export function maskedStringOf(text: string): string {
  try {
    const url = new URL(text.trim());
    if (url.password) url.password = MASK;
    for (const key of ['password', 'sslpassword']) if (url.searchParams.has(key)) url.searchParams.set(key, MASK);
    return url.toString();
  } catch {
    return MASK;
  }
}

/** maskedDetailsOf is what may be shown of a connection's details. */
export function maskedDetailsOf(endpoint: TargetEndpoint): NonNullable<DatabaseConnection['connectionDetails']> {
  return {
    host: endpoint.host,
    port: endpoint.port,
    database: endpoint.database,
    username: endpoint.user,
    ssl: endpoint.ssl,
    hasPassword: Boolean(endpoint.password),
  };
}

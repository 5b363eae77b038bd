import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** requestIdOf is a request's id: the caller's X-Request-Id when it is a plain token, else a new UUID. */
export function requestIdOf(headers: IncomingHttpHeaders): string {
  const given = headers['x-request-id'];
  return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
}

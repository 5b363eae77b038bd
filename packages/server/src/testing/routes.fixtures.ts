import type { FastifyInstance } from 'fastify';

// The server's routes, read from Fastify's own route tree, so that a suite can try every one of them (a route
// added later is covered without editing the suite).

/** RouteEntry is one path with one method. */
export interface RouteEntry {
  method: string;
  path: string;
}

/** routesOf lists every route of a Fastify instance (HEAD left out) under a prefix, with concrete methods. */
export function routesOf(app: FastifyInstance, prefix: string): RouteEntry[] {
  const lines = app.printRoutes({ commonPrefix: false }).split('\n');
  const stack: string[] = [];
  const routes: RouteEntry[] = [];
  for (const line of lines) {
    const match = /^(.*?)(?:├── |└── )(.+?)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    const depth = Math.round((match[1] ?? '').length / 4);
    const path = (depth > 0 ? (stack[depth - 1] ?? '') : '') + (match[2] ?? '');
    stack[depth] = path;
    stack.length = depth + 1;
    if (!match[3] || !path.startsWith(prefix)) continue;
    for (const method of match[3].split(', ')) if (method !== 'HEAD') routes.push({ method, path });
  }
  return routes;
}

/** concrete fills a route's parameters with a value (`:id` → the value). */
export const concrete = (path: string, value: string) => path.replace(/:[A-Za-z]+/g, value);

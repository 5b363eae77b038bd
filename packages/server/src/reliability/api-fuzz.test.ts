import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, testDialects } from '../testing/test-server.js';
import { FuzzAccounts } from './fuzz-account.js';
import {
  ANY_METHOD,
  bodyOf,
  type Credentials,
  credentials,
  extraHeaders,
  type GeneratedBody,
  hostileValue,
  materializeBody,
} from './fuzz-inputs.js';
import { queryString } from './fuzz-queries.js';
import type { RouteSpec } from './fuzz-routes.js';
import { hintsWithoutRoute, tableFamilies } from './fuzz-table-routes.js';
import { stateFingerprint } from './state-fingerprint.js';

// Generated malformed and hostile requests to every route of the route table, family by family. Two rules
// hold for each: no answer is a 5xx (nor a dropped connection, nor none within 10 s), and a request answered
// 4xx changed nothing (state-fingerprint.ts). A fixed seed and a fixed number of runs per family keep the run
// repeatable and short; a failure prints the shrunk request and, for a 5xx, the stack the server logged.

// FUZZ_SEED and FUZZ_RUNS explore further by hand (docs/reliability.md); the suite runs the fixed ones.
const SEED = Number(process.env.FUZZ_SEED ?? 20_250_601);
const RUNS_PER_FAMILY = Number(process.env.FUZZ_RUNS ?? 300);
const REQUEST_TIMEOUT_MS = 10_000;

interface FuzzRequest {
  route: string;
  method: string;
  path: string;
  query: string;
  body: GeneratedBody;
  as: Credentials;
  headers: Record<string, string>;
}

function requestsOf(routes: Record<string, RouteSpec>, columns: string[]): fc.Arbitrary<FuzzRequest> {
  const picks = Object.entries(routes).map(([route, spec]) => ({
    arbitrary: fc.constant(route),
    weight: spec.weight ?? 1,
  }));
  return fc.oneof(...picks).chain((route) => {
    const spec = routes[route] as RouteSpec;
    return fc.record({
      route: fc.constant(route),
      method: fc.oneof(
        { arbitrary: fc.constantFrom(...spec.methods), weight: 8 },
        { arbitrary: fc.constantFrom(...ANY_METHOD), weight: 1 },
      ),
      path: spec.path,
      query: spec.query ?? queryString(columns),
      body: spec.body ?? bodyOf(hostileValue),
      as: credentials(spec.as),
      headers: extraHeaders,
    });
  });
}

describe.each(testDialects)('API fuzz on %s', (dialect) => {
  let server: TestServer;
  let accounts: FuzzAccounts;
  let last: string | null = null;

  beforeAll(async () => {
    // Rate limits would turn most requests into 429s and test nothing behind them.
    server = await startTestServer(dialect, { authRateLimit: 1_000_000, apiRateLimit: 1_000_000 });
    accounts = await FuzzAccounts.create(server);
  });
  afterAll(() => server.close());

  // FUZZ_STATS=1 prints how often each route answered each status: how deep the requests reached.
  const stats: string[] = [];
  afterAll(() => {
    if (!process.env.FUZZ_STATS) return;
    const counts = new Map<string, number>();
    for (const line of stats) counts.set(line, (counts.get(line) ?? 0) + 1);
    console.log(
      [...counts]
        .sort()
        .map(([k, v]) => `${k} ×${v}`)
        .join('\n'),
    );
  });

  async function loggedStack(): Promise<unknown> {
    await server.app.basalt.logs.flush();
    const entry = await server.app.basalt.db.kysely
      .selectFrom('system_logs')
      .select(['message', 'context'])
      .where('level', '=', 'error')
      .where('message', 'like', 'Unexpected error%')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return entry ? { message: entry.message, error: JSON.parse(entry.context).error } : null;
  }

  async function send(request: FuzzRequest): Promise<{ status: number; text: string }> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      ...request.headers,
      ...accounts.headersFor(request.as),
    };
    const bodyless = request.method === 'GET' || request.method === 'HEAD';
    const res = await fetch(`${server.url}${request.path}${request.query}`, {
      method: request.method,
      headers,
      body: bodyless ? undefined : materializeBody(request.body),
      redirect: 'manual',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    return { status: res.status, text: (await res.text()).slice(0, 500) };
  }

  const check = async (request: FuzzRequest) => {
    if (await accounts.keep()) last = null;
    const before = last ?? (await stateFingerprint(server.app.basalt.db));
    const { status, text } = await send(request);
    if (process.env.FUZZ_STATS) stats.push(`${request.route} ${request.method} ${status}`);
    if (status >= 500) {
      throw new Error(`${status} ${text}\nlogged: ${JSON.stringify(await loggedStack())}`);
    }
    const after = await stateFingerprint(server.app.basalt.db);
    if (status >= 400) expect(JSON.parse(after), `${status} ${text} changed the state`).toEqual(JSON.parse(before));
    last = after;
  };

  // The route table's routes are known once the server runs; the families are made when the test runs.
  const families: Array<[string, () => Record<string, RouteSpec>, string[]]> = [
    ...(['console', 'public', 'rest', 'gateway', 'functions', 'storage', 'auth'] as const).map(
      (family): [string, () => Record<string, RouteSpec>, string[]] => [
        `route table, ${family} family`,
        () => familyOf(family),
        family === 'auth' ? ['email', 'password'] : ['title', 'qty'],
      ],
    ),
  ];
  const familyOf = (family: string): Record<string, RouteSpec> =>
    tableFamilies(server.app.routes, server.app.basalt.callers, accounts.known).find((f) => f.family === family)
      ?.routes ?? {};

  it('every hint of the fuzz test names a route of the table', () => {
    expect(hintsWithoutRoute(server.app.routes, accounts.known)).toEqual([]);
  });

  it('every family of the route table is fuzzed', () => {
    const fuzzed = new Set(['console', 'public', 'rest', 'gateway', 'functions', 'storage', 'auth']);
    const tableFamilyNames = tableFamilies(server.app.routes, server.app.basalt.callers, accounts.known).map(
      (f) => f.family,
    );
    expect(tableFamilyNames.filter((family) => !fuzzed.has(family))).toEqual([]);
  });

  it.each(families)(
    '%s: no 5xx, and a 4xx changes nothing',
    async (_family, routes, columns) => {
      // A request of the family before may still be running on the server after its client gave up.
      last = null;
      const fuzzed = routes();
      if (Object.keys(fuzzed).length === 0) return;
      await fc.assert(fc.asyncProperty(requestsOf(fuzzed, columns), check), { seed: SEED, numRuns: RUNS_PER_FAMILY });
    },
    // About 10 ms a request; a failure's shrinking sends more.
    60_000 + RUNS_PER_FAMILY * 100,
  );
});

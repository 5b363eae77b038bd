import { importJWK, type JWK, SignJWT } from 'jose';
import { expect } from 'vitest';
import type { Config } from '../config.js';
import type { DialectName } from '../db/dialect/dialect.js';
import { listSigningKeys } from '../features/auth/sessions/signing-keys.store.js';
import { startTestServer, type TestResponse, type TestServer } from './test-server.js';

// Test fixtures for every suite that needs signed-in users: named users, sign-up, cookie login, and
// hand-made tokens (expired, tampered). Import them from any feature's tests.

/** TestUser is a registration that passes every rule. */
export interface TestUser {
  username: string;
  email: string;
  password: string;
}

/** users are the named test users; each suite starts on a fresh database, so they can be reused. */
export const users = {
  alice: { username: 'alice', email: 'alice@example.com', password: 'Alice-Passw0rd!' },
  bob: { username: 'bob', email: 'bob@example.com', password: 'Bob-Passw0rd!' },
  carol: { username: 'carol', email: 'carol@example.com', password: 'Carol-Passw0rd!' },
  dave: { username: 'dave', email: 'dave@example.com', password: 'Dave-Passw0rd!' },
  erin: { username: 'erin', email: 'erin@example.com', password: 'Erin-Passw0rd!' },
  /** mallory plays the attacker. */
  mallory: { username: 'mallory', email: 'mallory@example.com', password: 'Mallory-Passw0rd!' },
} satisfies Record<string, TestUser>;

// pg-pool's end() resolves before its clients' connections are gone; dropping the database WITH (FORCE)
// right then makes PostgreSQL send those closing clients a FATAL error, which the pool (without an
// 'error' listener) rethrows as an unhandled error. Wait until the database has no backends left.
/** startServer starts a test server (kept as the auth suites' name for it). */
export const startServer = startTestServer;

/** startAuthServer starts a test server whose auth rate limits will not get in a suite's way. */
export function startAuthServer(dialect: DialectName, overrides: Partial<Config> = {}): Promise<TestServer> {
  return startServer(dialect, { authRateLimit: 10_000, ...overrides });
}

/** keyHeaders are what supabase-js sends when nobody is signed in: the key as apikey and as bearer. */
export const keyHeaders = (key: string): Record<string, string> => ({ apikey: key, authorization: `Bearer ${key}` });

/** userHeaders are what supabase-js sends for a signed-in user. */
export const userHeaders = (server: TestServer, accessToken: string): Record<string, string> => ({
  apikey: server.anonKey,
  authorization: `Bearer ${accessToken}`,
});

/** SignedInUser is a user with a live session on a test server. */
export interface SignedInTestUser extends TestUser {
  id: string;
  accessToken: string;
  refreshToken: string;
  /** Headers for /auth/v1, /rest/v1 and /api calls as this user (apikey + bearer). */
  headers: Record<string, string>;
}

function expectSession(res: TestResponse, what: string): void {
  if (res.status !== 200 || !res.body?.access_token) {
    throw new Error(`${what} failed: ${res.status} ${res.text}`);
  }
}

function signedIn(server: TestServer, user: TestUser, res: TestResponse): SignedInTestUser {
  return {
    ...user,
    id: res.body.user.id,
    accessToken: res.body.access_token,
    refreshToken: res.body.refresh_token,
    headers: userHeaders(server, res.body.access_token),
  };
}

/** signUpUser registers a user through POST /auth/v1/signup (no SMTP: confirmed at once) and returns the session. */
export async function signUpUser(server: TestServer, user: TestUser): Promise<SignedInTestUser> {
  const res = await server.request('POST', '/auth/v1/signup', {
    headers: keyHeaders(server.anonKey),
    json: { email: user.email, password: user.password, data: { username: user.username } },
  });
  expectSession(res, `sign-up of ${user.email}`);
  return signedIn(server, user, res);
}

/** signInUser signs an existing user in with POST /auth/v1/token?grant_type=password (a new session). */
export async function signInUser(server: TestServer, user: TestUser): Promise<SignedInTestUser> {
  const res = await server.request('POST', '/auth/v1/token?grant_type=password', {
    headers: keyHeaders(server.anonKey),
    json: { email: user.email, password: user.password },
  });
  expectSession(res, `sign-in of ${user.email}`);
  return signedIn(server, user, res);
}

/** CookieSession is a console login: the Cookie header (session + CSRF cookies) and the CSRF token. */
export interface CookieSession {
  cookie: string;
  csrfToken: string;
  /** Headers for a mutating /api call authenticated by the cookie. */
  headers: Record<string, string>;
}

function cookiePairs(res: TestResponse): string[] {
  return res.headers.getSetCookie().map((c) => c.split(';')[0] ?? '');
}

/**
 * loginWithCookie logs an existing user in through POST /api/auth/login, as the console does, and fetches the
 * session's CSRF token (the one fetched before signing in does not pass once the session exists).
 */
export async function loginWithCookie(server: TestServer, user: TestUser): Promise<CookieSession> {
  const before = await server.request('GET', '/api/csrf-token');
  const csrfCookie = cookiePairs(before).join('; ');
  const res = await server.request('POST', '/api/auth/login', {
    headers: { cookie: csrfCookie, 'x-csrf-token': before.body.csrfToken },
    json: { email: user.email, password: user.password },
  });
  if (res.status !== 200) throw new Error(`console login of ${user.email} failed: ${res.status} ${res.text}`);
  const cookie = [csrfCookie, ...cookiePairs(res)].join('; ');
  const csrf = await server.request('GET', '/api/csrf-token', { headers: { cookie } });
  return { cookie, csrfToken: csrf.body.csrfToken, headers: { cookie, 'x-csrf-token': csrf.body.csrfToken } };
}

/**
 * signTestToken signs a JWT with the server's own signing key, for tokens the API never issues
 * (expired, other claims). `expiresIn` may be negative (null: no exp at all); the issuer is the server's unless `iss` is given.
 */
export async function signTestToken(
  server: TestServer,
  claims: Record<string, unknown>,
  options: { expiresIn?: number | null; subject?: string } = {},
): Promise<string> {
  const [key] = await listSigningKeys(server.app.basalt.db.kysely);
  if (!key) throw new Error('the server has no signing key');
  const privateKey = await importJWK(JSON.parse(key.private_jwk) as JWK, key.alg);
  const iat = Math.floor(Date.now() / 1000) - 7200;
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' }).setIssuedAt(iat);
  if (options.expiresIn !== null) jwt.setExpirationTime(Math.floor(Date.now() / 1000) + (options.expiresIn ?? 3600));
  if (options.subject) jwt.setSubject(options.subject);
  if (!('iss' in claims)) jwt.setIssuer(server.app.basalt.tokens.issuer);
  return jwt.sign(privateKey);
}

/** tamper flips one character of a JWT's signature. */
export function tamper(token: string): string {
  const last = token.at(-2) === 'A' ? 'B' : 'A';
  return `${token.slice(0, -2)}${last}${token.slice(-1)}`;
}

type Lazy<T> = T | (() => T);
const resolve = <T>(value: Lazy<T>): T => (typeof value === 'function' ? (value as () => T)() : value);

/** ApiScenario is one row of a table-driven API test (PocketBase's ApiScenario). */
export interface ApiScenario {
  name: string;
  method: string;
  /** The path and query; a function is called when the scenario runs (for ids made in beforeAll). */
  url: Lazy<string>;
  /** Request headers; a function is called when the scenario runs (for tokens made in beforeAll). */
  headers?: Lazy<Record<string, string>>;
  /** A JSON body; `body` sends raw text instead. */
  json?: Lazy<unknown>;
  body?: string;
  status: number;
  /** The response body must contain this shape (toMatchObject). */
  expected?: Record<string, unknown>;
  /** The response body must be exactly this (toEqual; null for none). */
  expectedBody?: unknown;
  /** Response headers that must be present with these values (a RegExp matches). */
  expectedHeaders?: Record<string, string | RegExp>;
}

/** runScenario sends a scenario's request and checks its status, body shape and headers. */
export async function runScenario(server: TestServer, scenario: ApiScenario): Promise<TestResponse> {
  const json = scenario.json === undefined ? undefined : resolve(scenario.json);
  const res = await server.request(scenario.method, resolve(scenario.url), {
    headers: scenario.headers ? resolve(scenario.headers) : undefined,
    ...(json !== undefined ? { json } : {}),
    ...(scenario.body !== undefined ? { body: scenario.body } : {}),
  });
  expect({ status: res.status, body: res.body }).toMatchObject({
    status: scenario.status,
    ...(scenario.expected ? { body: scenario.expected } : {}),
  });
  if (scenario.expectedBody !== undefined) expect(res.body).toEqual(scenario.expectedBody);
  for (const [name, value] of Object.entries(scenario.expectedHeaders ?? {})) {
    if (value instanceof RegExp) expect(res.headers.get(name)).toMatch(value);
    else expect(res.headers.get(name)).toBe(value);
  }
  return res;
}

/**
 * collectionRefusals are what every console collection (`/api/keys`, `/api/secrets`) refuses alike: no or a forged
 * token, an array body, malformed JSON, and deleting an unknown, non-numeric or huge id (404 `notFound`).
 */
export function collectionRefusals(
  url: string,
  options: { headers: Lazy<Record<string, string>>; body: Record<string, unknown>; notFound: Record<string, unknown> },
): ApiScenario[] {
  const { headers, body, notFound } = options;
  return [
    { name: 'list without credentials', method: 'GET', url, status: 401, expected: { code: 'unauthorized' } },
    {
      name: 'list with a forged token',
      method: 'GET',
      url,
      headers: { authorization: 'Bearer not.a.jwt' },
      status: 401,
      expected: { code: 'invalid_token' },
    },
    { name: 'create without credentials', method: 'POST', url, json: body, status: 401 },
    {
      name: 'an array body',
      method: 'POST',
      url,
      headers,
      json: [body],
      status: 400,
      expected: { code: 'validation_failed' },
    },
    {
      name: 'malformed JSON',
      method: 'POST',
      url,
      headers: () => ({ ...resolve(headers), 'content-type': 'application/json' }),
      body: '{"name": ',
      status: 400,
      expected: { code: 'bad_json' },
    },
    { name: 'delete an unknown id', method: 'DELETE', url: `${url}/999999`, headers, status: 404, expected: notFound },
    {
      name: 'delete a non-numeric id',
      method: 'DELETE',
      url: `${url}/abc`,
      headers,
      status: 404,
      expected: { code: notFound.code },
    },
    { name: 'delete a huge id', method: 'DELETE', url: `${url}/${'9'.repeat(40)}`, headers, status: 404 },
    { name: 'delete without credentials', method: 'DELETE', url: `${url}/1`, status: 401 },
  ];
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TokenVerifier } from '../../lib/crypto/token-verifier.js';
import type { AccountRow } from './accounts.service.js';
import type { AuthDeps } from './auth-deps.js';
import type { TokenService } from './tokens.service.js';
import type { UserRow } from './user-pool.js';

// Paths a browser opens without headers, and public metadata.
const EXEMPT = /^\/auth\/v1\/(callback|authorize|health|\.well-known\/.*)\/?$/;
const VERIFY_LINK = /^\/auth\/v1\/verify\/?$/;

type MaybePromise<T> = T | Promise<T>;

/**
 * AuthPools are the user pools /auth/v1 serves: the console accounts (with this instance's own keys) and each
 * app's end users (with that app's keys), whose services features/apps builds.
 */
export interface AuthPools {
  console: AuthDeps<AccountRow>;
  /** appOfKey returns the auth services of the app one of whose current keys this is, or null. */
  appOfKey(key: string): MaybePromise<AuthDeps<UserRow> | null>;
  /** appOfRef returns the auth services of the app of a ref (the mail links name it), or null. */
  appOfRef(ref: string): MaybePromise<AuthDeps<UserRow> | null>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** authDeps are the services of the user pool an /auth/v1 request is for, set by the gateway. */
    authDeps: AuthDeps<UserRow> | null;
  }
}

/** apiKeyOf reads the `apikey` header, else the `apikey` query parameter (old clients, links). */
export function apiKeyOf(request: FastifyRequest): string | null {
  const header = request.headers.apikey;
  if (typeof header === 'string' && header) return header;
  const query = request.query as Record<string, unknown> | undefined;
  const param = query?.apikey;
  return typeof param === 'string' && param ? param : null;
}

/**
 * isInstanceKey tells whether a key is this instance's anon or service key (or another key JWT it signed for
 * itself); an app's key (one with a `ref`) is not.
 */
export async function isInstanceKey(tokens: TokenVerifier, key: string): Promise<boolean> {
  if (tokens.roleOfKey(key)) return true;
  if (key.split('.').length !== 3) return false;
  try {
    const { role, ref } = await tokens.verify(key);
    return ref === null && (role === 'anon' || role === 'service_role');
  } catch {
    return false;
  }
}

/** depsOf returns the services of the pool a request is for (the console's unless the gateway chose an app's). */
export function depsOf(request: FastifyRequest, pools: AuthPools): AuthDeps<UserRow> {
  return request.authDeps ?? pools.console;
}

/**
 * apiKeyGateway is the onRequest hook in front of /auth/v1, mirroring Supabase's gateway: 401
 * `{"message":"No API key found in request"}` without a key, `{"message":"Invalid API key"}` for anything
 * but this instance's keys or an app's current keys. It picks the user pool: an app's key serves that app's
 * end users, the instance's keys the console accounts. A mail link (GET /verify) names its app by `ref`.
 */
export function apiKeyGateway(tokens: TokenService, pools: AuthPools) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '';
    if (!path.startsWith('/auth/v1/')) return;
    if (request.method === 'GET' && VERIFY_LINK.test(path)) {
      const ref = (request.query as Record<string, unknown> | undefined)?.ref;
      if (typeof ref === 'string' && ref) request.authDeps = await pools.appOfRef(ref);
      return;
    }
    if (EXEMPT.test(path)) return;
    const key = apiKeyOf(request);
    if (!key) return reply.code(401).send({ message: 'No API key found in request' });
    if (await isInstanceKey(tokens, key)) return;
    const app = await pools.appOfKey(key);
    if (!app) return reply.code(401).send({ message: 'Invalid API key' });
    request.authDeps = app;
  };
}

import { ApiError } from '../../../http/errors.js';
import type { AdmissionStep, Call } from '../../../http/routes/route.js';
import type { TokenVerifier } from '../../../lib/crypto/token-verifier.js';
import type { AuthDeps } from '../auth-deps.js';
import type { AccountRow } from '../users/accounts.service.js';
import type { UserRow } from '../users/user-pool.js';

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

declare module '../../../http/routes/route.js' {
  interface CallFacts {
    /** authDeps are the services of the user pool an /auth/v1 call is for, when the gateway chose an app's. */
    authDeps?: AuthDeps<UserRow>;
  }
}

/** apiKeyOf reads the `apikey` header, else the `apikey` query parameter (old clients, links). */
export function apiKeyOf(call: Call): string | null {
  const header = call.headers.apikey;
  if (typeof header === 'string' && header) return header;
  const param = call.query.apikey;
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

/** depsOf returns the services of the pool a call is for (the console's unless the gateway chose an app's). */
export function depsOf(call: Call, pools: AuthPools): AuthDeps<UserRow> {
  return call.facts.authDeps ?? pools.console;
}

// What Supabase's gateway answers before a request reaches GoTrue: `{"message": …}`.
const gatewayRefusal = (message: string) => new ApiError(401, 'invalid_api_key', message, { family: 'gateway' });

/**
 * apiKeyGateway is the admission step in front of /auth/v1, mirroring Supabase's gateway: 401
 * `{"message":"No API key found in request"}` without a key, `{"message":"Invalid API key"}` for anything
 * but this instance's keys or an app's current keys. It picks the user pool: an app's key serves that app's
 * end users, the instance's keys the console accounts.
 */
export function apiKeyGateway(tokens: TokenVerifier, pools: AuthPools): AdmissionStep {
  return (call) => {
    const key = apiKeyOf(call);
    if (!key) throw gatewayRefusal('No API key found in request');
    if (tokens.roleOfKey(key)) return;
    return (async () => {
      if (await isInstanceKey(tokens, key)) return;
      const app = await pools.appOfKey(key);
      if (!app) throw gatewayRefusal('Invalid API key');
      call.facts.authDeps = app;
    })();
  };
}

/** poolOfRef is the step of a mail link (GET /verify), opened without headers: it names its app by `ref`. */
export function poolOfRef(pools: AuthPools): AdmissionStep {
  return (call) => {
    const ref = call.query.ref;
    if (typeof ref !== 'string' || !ref) return;
    return Promise.resolve(pools.appOfRef(ref)).then((app) => {
      if (app) call.facts.authDeps = app;
    });
  };
}

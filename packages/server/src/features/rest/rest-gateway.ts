import { ApiError } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import type { AdmissionStep, Call } from '../../http/routes/route.js';
import { type Actor, accountActor, appActor } from '../../lib/actor/actor.js';
import type { TokenVerifier } from '../../lib/crypto/token-verifier.js';
import { isInstanceKey } from '../auth/gateway/auth-gateway.js';
import { RestQueryError } from './rest-query.errors.js';

// Who may call /rest/v1: two admission steps. The gateway wants an `apikey` (header or query parameter):
// this instance's anon or service key, or one of an app's current keys. With the instance's key the data API
// wants a signed-in console account (or its API key), whose account scopes every table and row. With an app's
// key it serves that app's callers: signed out (anon), its end users, or its service key, on the tables of the
// account owning the app, under their access rules (features/records/record-rules.ts). A token of another app,
// or a console account's token with an app's key, is refused. The caller step resolved the principal first.

/** RestKey is what the apikey of a /rest/v1 request is: this instance's key, or an app's. */
export type RestKey =
  | { kind: 'instance' }
  | { kind: 'app'; accountId: string; ref: string; role: 'anon' | 'service_role' };

type MaybePromise<T> = T | Promise<T>;

/** AppKeyIdentity is an app key recognised: the owning account, the app's ref and the key's role. */
type AppKeyIdentity = Omit<Extract<RestKey, { kind: 'app' }>, 'kind'>;

/** AppKeyMatcher recognises an app's current keys (features/apps). */
export type AppKeyMatcher = (key: string) => MaybePromise<AppKeyIdentity | null>;

declare module '../../http/routes/route.js' {
  interface CallFacts {
    /** restKey is the /rest/v1 request's apikey as the gateway recognised it. */
    restKey?: RestKey;
  }
}

const INSTANCE: RestKey = { kind: 'instance' };

// What Supabase's gateway answers before a request reaches PostgREST: `{"message": …}`.
const gatewayRefusal = (message: string) => new ApiError(401, 'invalid_api_key', message, { family: 'gateway' });

/** apiKeyOfCall reads the `apikey` header, else the `apikey` query parameter (old clients, links). */
export function apiKeyOfCall(call: Call): string | null {
  const header = call.headers.apikey;
  if (typeof header === 'string' && header) return header;
  if (!call.rawQuery.includes('apikey=')) return null;
  return new URLSearchParams(call.rawQuery).get('apikey') || null;
}

/**
 * restKeyStep is the gateway of /rest/v1: 401 without a key of this instance or of an app, as Supabase's gateway
 * answers. The usual keys are recognised without waiting.
 */
export function restKeyStep(tokens: TokenVerifier, matchAppKey: AppKeyMatcher): AdmissionStep {
  return (call) => {
    const key = apiKeyOfCall(call);
    if (!key) throw gatewayRefusal('No API key found in request');
    if (tokens.roleOfKey(key)) {
      call.facts.restKey = INSTANCE;
      return;
    }
    const accept = (match: AppKeyIdentity | null): boolean => {
      if (!match) return false;
      call.facts.restKey = { kind: 'app', ...match };
      return true;
    };
    const app = matchAppKey(key);
    if (!(app instanceof Promise) && accept(app)) return;
    return Promise.resolve(app).then(async (match) => {
      if (accept(match)) return;
      if (!(await isInstanceKey(tokens, key))) throw gatewayRefusal('Invalid API key');
      call.facts.restKey = INSTANCE;
    });
  };
}

/** restCaller is the step that decides the actor of a /rest/v1 call from its principal and its apikey. */
export const restCaller: AdmissionStep = (call) => {
  call.actor = restActorOf(call.principal, call.facts.restKey ?? null, call.params.table ?? call.params.fn ?? '');
};

const invalidToken = (code: string, message: string) =>
  new RestQueryError(401, code, message).withHeaders({
    'WWW-Authenticate': `Bearer error="invalid_token", error_description="${message.replaceAll('"', "'")}"`,
  });

const NOT_FOR_THIS_KEY = 'JWT was issued for another key: use the apikey of the same app or instance';

/**
 * restActorOf maps the principal and the apikey to the actor. With this instance's key: a user (or an account's
 * API key); anon → 401 PGRST302; a bad token → 401 PGRST301 (PGRST303 when expired); the service key → 403 42501
 *. With an app's key: its anon key (or no token) → the app's signed-out caller; its end user's token
 * → that user; its service key → the owner's full access; the owner's API key → the owner; anything of another
 * app or of the console → 401 PGRST301.
 */
export function restActorOf(principal: Principal, key: RestKey | null, tableName: string): Actor {
  if (principal.kind === 'invalid') {
    throw principal.reason === 'expired'
      ? invalidToken('PGRST303', principal.message)
      : invalidToken('PGRST301', principal.message);
  }
  if (key?.kind === 'app') return appCallerOf(principal, key, tableName);
  switch (principal.kind) {
    case 'user':
      return accountActor(principal.accountId);
    case 'apiKey':
      // An account's API key grants that account's access (DESIGN.md "APIs"), here as on /api/table.
      return accountActor(principal.accountId, principal.keyId);
    case 'anonymous':
      throw new RestQueryError(401, 'PGRST302', 'Anonymous access is disabled').withHeaders({
        'WWW-Authenticate': 'Bearer',
      });
    case 'service':
      throw new RestQueryError(403, '42501', `permission denied for table ${tableName}`);
    case 'appKey':
    case 'endUser':
      throw invalidToken('PGRST301', NOT_FOR_THIS_KEY);
  }
}

function appCallerOf(principal: Principal, key: Extract<RestKey, { kind: 'app' }>, tableName: string): Actor {
  const { accountId, ref } = key;
  switch (principal.kind) {
    case 'anonymous':
      // No token, or the instance's anon key as bearer: signed out, as far as the app can tell.
      return appActor(accountId, { ref, role: key.role === 'service_role' ? 'service_role' : 'anon' });
    case 'appKey':
      if (principal.ref !== ref) throw invalidToken('PGRST301', NOT_FOR_THIS_KEY);
      return appActor(accountId, { ref, role: principal.role });
    case 'endUser':
      if (principal.ref !== ref) throw invalidToken('PGRST301', NOT_FOR_THIS_KEY);
      return appActor(accountId, { ref, role: 'authenticated' }, principal.userId);
    case 'apiKey':
      if (principal.accountId !== accountId) throw invalidToken('PGRST301', NOT_FOR_THIS_KEY);
      return accountActor(principal.accountId, principal.keyId);
    case 'service':
      throw new RestQueryError(403, '42501', `permission denied for table ${tableName}`);
    case 'user':
      throw invalidToken('PGRST301', NOT_FOR_THIS_KEY);
    case 'invalid':
      throw invalidToken('PGRST301', principal.message);
  }
}

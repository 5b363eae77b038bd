import type { Callers } from '../../http/caller.js';
import type { Principal } from '../../http/principal.js';
import type { AdmissionStep, Call } from '../../http/routes/route.js';
import { type Actor, accountActor, appActor } from '../../lib/actor/actor.js';
import type { TokenVerifier } from '../../lib/crypto/token-verifier.js';
import { matchAppKey } from '../apps/apps.service.js';
import type { Apps } from '../apps/apps-config.js';
import { apiKeyOfCall, type RestKey, restKeyStep } from '../rest/rest-gateway.js';
import { forbidden, unauthorized } from './storage-errors.js';

// Who calls /storage/v1. The `apikey` (header or query) says whose storage it is, as on /rest/v1: this instance's
// key (or none, for an account's own API key sent as bearer) serves a signed-in console account or its API key;
// an app's key serves that app's callers (its signed-out visitors, its end users, its service key) on the buckets
// of the account owning the app, under each bucket's rules (storage-rules.ts). A visitor without any of these
// reaches only public buckets and signed URLs, which need no caller.

declare module '../../http/routes/route.js' {
  interface CallFacts {
    /** storageActor is who a /storage/v1 call acts as, or null for a visitor with no account behind it. */
    storageActor?: Actor | null;
  }
}

const INSTANCE: RestKey = { kind: 'instance' };

/** storageActorOf maps the principal and the apikey to the actor, or null for a caller with no account. */
export function storageActorOf(principal: Principal, key: RestKey): Actor | null {
  if (principal.kind === 'invalid') {
    throw unauthorized(principal.reason === 'expired' ? 'jwt expired' : 'Invalid JWT');
  }
  if (key.kind === 'app') {
    const { accountId, ref } = key;
    switch (principal.kind) {
      case 'anonymous':
        return appActor(accountId, { ref, role: key.role === 'service_role' ? 'service_role' : 'anon' });
      case 'appKey':
        if (principal.ref !== ref) throw unauthorized('The token is of another app');
        return appActor(accountId, { ref, role: principal.role });
      case 'endUser':
        if (principal.ref !== ref) throw unauthorized('The token is of another app');
        return appActor(accountId, { ref, role: 'authenticated' }, principal.userId);
      case 'apiKey':
        if (principal.accountId !== accountId) throw unauthorized('The key is of another account');
        return accountActor(principal.accountId, principal.keyId);
      default:
        throw unauthorized('The token is not of this app');
    }
  }
  switch (principal.kind) {
    case 'user':
      return accountActor(principal.accountId);
    case 'apiKey':
      return accountActor(principal.accountId, principal.keyId);
    case 'anonymous':
      return null;
    case 'service':
      throw forbidden('The service key has no account; use an API key, a signed-in account or an app key');
    default:
      // An app's key or end user with this instance's apikey: it must say which app it belongs to.
      throw unauthorized('Use the apikey of the app this token belongs to');
  }
}

/** StorageCallers is what /storage/v1's routes use of the server to admit a call: caller steps, keys, apps. */
export interface StorageCallers {
  callers: Callers;
  tokens: TokenVerifier;
  apps: Apps;
}

/** storageAdmission are the admission steps of /storage/v1 routes that act for someone. */
export function storageAdmission(ctx: StorageCallers): AdmissionStep[] {
  const gateway = restKeyStep(ctx.tokens, (key) => matchAppKey(ctx.apps, key));
  const keyStep: AdmissionStep = (call) => {
    if (apiKeyOfCall(call)) return gateway(call);
    call.facts.restKey = INSTANCE;
  };
  const decide: AdmissionStep = (call) => {
    call.facts.storageActor = storageActorOf(call.principal, call.facts.restKey ?? INSTANCE);
  };
  return [ctx.callers.anyone, keyStep, decide];
}

/** actorOfCall is the call's actor; a visitor with no account behind it is refused (401). */
export function actorOfCall(call: Call): Actor {
  const actor = call.facts.storageActor;
  if (!actor) throw unauthorized('Missing or invalid authorization: sign in, or send an API key');
  return actor;
}

/** maybeActorOfCall is the call's actor, or null for a visitor. */
export const maybeActorOfCall = (call: Call): Actor | null => call.facts.storageActor ?? null;

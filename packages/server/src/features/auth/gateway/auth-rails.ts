import type { Callers } from '../../../http/caller.js';
import type { AdmissionStep } from '../../../http/routes/route.js';
import type { TokenVerifier } from '../../../lib/crypto/token-verifier.js';
import { type AuthPools, apiKeyGateway, poolOfRef } from './auth-gateway.js';
import { serviceRole } from './auth-guards.js';

// How /auth/v1's routes are admitted, said once: every route resolves its caller first (the route decides what
// the principal may do), then, unless a browser opens it without headers, passes Supabase's apikey gateway,
// which picks the user pool; the admin routes want the pool's service key besides.

/** AuthAdmission is a route's error family and admission steps. */
export interface AuthAdmission {
  family: 'auth';
  admit: readonly AdmissionStep[];
}

/** AuthRails are what the /auth/v1 routes are declared with. */
export interface AuthRails {
  pools: AuthPools;
  /** keyed: the caller, then the apikey gateway (most of /auth/v1). */
  keyed: AuthAdmission;
  /** browser: opened by a browser without headers (authorize, callback, health, JWKS): the caller only. */
  browser: AuthAdmission;
  /** link: a mail link, which names its app by `ref` in the query. */
  link: AuthAdmission;
  /** service: keyed, then the pool's service key as bearer (admin, invite). */
  service: AuthAdmission;
}

/** authRails builds the admission of the /auth/v1 routes. */
export function authRails(pools: AuthPools, callers: Callers, tokens: TokenVerifier): AuthRails {
  const keyed = [callers.anyone, apiKeyGateway(tokens, pools)];
  return {
    pools,
    keyed: { family: 'auth', admit: keyed },
    browser: { family: 'auth', admit: [callers.anyone] },
    link: { family: 'auth', admit: [callers.anyone, poolOfRef(pools)] },
    service: { family: 'auth', admit: [...keyed, serviceRole(pools)] },
  };
}

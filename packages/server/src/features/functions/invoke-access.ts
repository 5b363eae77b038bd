import type { Principal } from '../../http/principal.js';
import type { LiveFunction } from './function-directory.js';

// Who may call a function, in one place. A function that requires a signed-in caller (verifyJwt, on by default
// like Supabase's verify_jwt) accepts, of its own account only: a console session token or an API key, an end
// user's token of the account's app, or the app's service key. An anon key alone (the instance's or the app's)
// is no signed-in caller.

/** InvokeRefusal is why a call was refused: 401 with a message. */
export interface InvokeRefusal {
  status: 401;
  code: string;
  message: string;
}

/** refusalOf returns why the principal may not call the function, or null when it may. */
export function refusalOf(principal: Principal, fn: LiveFunction): InvokeRefusal | null {
  if (!fn.verifyJwt) return null;
  const signedIn = signedInAccountOf(principal);
  if (signedIn === fn.accountId) return null;
  if (principal.kind === 'invalid') {
    return { status: 401, code: 'INVALID_JWT', message: `Invalid JWT: ${principal.message}` };
  }
  if (signedIn !== null) {
    return { status: 401, code: 'UNAUTHORIZED', message: "This function accepts only its own account's callers" };
  }
  return {
    status: 401,
    code: 'UNAUTHORIZED',
    message: 'This function requires a signed-in caller: send a session token or an API key as Authorization: Bearer',
  };
}

// The account of a signed-in caller (its session, key, app end user or app service key), or null.
function signedInAccountOf(principal: Principal): string | null {
  switch (principal.kind) {
    case 'user':
    case 'apiKey':
    case 'endUser':
      return principal.accountId;
    case 'appKey':
      return principal.role === 'service_role' ? principal.accountId : null;
    default:
      return null;
  }
}

/**
 * invokerAccountOf is the account a principal names (to find a function by name), or null: a signed-in caller's,
 * or the account whose app key (the anon key included) the call came with.
 */
export function invokerAccountOf(principal: Principal): string | null {
  return principal.kind === 'appKey' ? principal.accountId : signedInAccountOf(principal);
}

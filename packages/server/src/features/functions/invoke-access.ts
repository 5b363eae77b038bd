import type { Principal } from '../../http/principal.js';
import type { LiveFunction } from './function-directory.js';

// Who may call a function, in one place. A function that requires a signed-in caller (verifyJwt, on by default)
// behaves like Supabase's verify_jwt: it accepts any JWT its project signed, so of its own account a console
// session token or an API key, an end user's token of the account's app, and the app's keys, the anon key
// included (what a signed-out supabase-js sends). A function that cares who calls reads the token's role itself.
// The instance's own anon key names no account and is no caller. Another account's caller never reaches a
// function (function-directory.ts finds the caller's account's), and is told only that there is none.

/** InvokeRefusal is why a call was refused: 401 (no acceptable token) or 404 (not this caller's function). */
export interface InvokeRefusal {
  status: 401 | 404;
  code: string;
  message: string;
}

/** refusalOf returns why the principal may not call the function, or null when it may. */
export function refusalOf(principal: Principal, fn: LiveFunction): InvokeRefusal | null {
  const caller = invokerAccountOf(principal);
  if (caller !== null && caller !== fn.accountId) {
    return { status: 404, code: 'NOT_FOUND', message: 'Function not found' };
  }
  if (!fn.verifyJwt || caller !== null) return null;
  if (principal.kind === 'invalid') {
    return { status: 401, code: 'INVALID_JWT', message: `Invalid JWT: ${principal.message}` };
  }
  return {
    status: 401,
    code: 'UNAUTHORIZED',
    message:
      "This function requires a JWT of its project: send the app's anon key, a user's token or an API key as Authorization: Bearer",
  };
}

/**
 * invokerAccountOf is the account a principal names (to find its function), or null: a signed-in caller's (its
 * session, key, or app end user), or the account whose app key (anon or service) the call came with.
 */
export function invokerAccountOf(principal: Principal): string | null {
  switch (principal.kind) {
    case 'user':
    case 'apiKey':
    case 'endUser':
    case 'appKey':
      return principal.accountId;
    default:
      return null;
  }
}

import type { AdmissionStep, Call } from '../../http/routes/route.js';
import { type Actor, accountActor, appActor } from '../../lib/actor/actor.js';
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

/**
 * functionCaller is the admission step of a function call: the actor is the account the credentials name (its
 * console session, API key, app key, or an end user of its app); a call that names none has no actor.
 */
export const functionCaller: AdmissionStep = (call) => {
  const actor = invokerOf(call);
  if (actor) call.actor = actor;
};

function invokerOf(call: Call): Actor | null {
  const p = call.principal;
  switch (p.kind) {
    case 'user':
      return accountActor(p.accountId);
    case 'apiKey':
      return accountActor(p.accountId, p.keyId);
    case 'appKey':
      return appActor(p.accountId, { ref: p.ref, role: p.role });
    case 'endUser':
      return appActor(p.accountId, { ref: p.ref, role: 'authenticated' }, p.userId);
    default:
      return null;
  }
}

/** invokerAccountOf is the account a call's actor acts for (to find its function), or null when it names none. */
export const invokerAccountOf = (call: Call): string | null => (call.hasActor ? call.actor.accountId : null);

/** refusalOf returns why the call may not reach the function, or null when it may. */
export function refusalOf(call: Call, fn: LiveFunction): InvokeRefusal | null {
  const caller = invokerAccountOf(call);
  if (caller !== null && caller !== fn.accountId) {
    return { status: 404, code: 'NOT_FOUND', message: 'Function not found' };
  }
  if (!fn.verifyJwt || caller !== null) return null;
  if (call.principal.kind === 'invalid') {
    return { status: 401, code: 'INVALID_JWT', message: `Invalid JWT: ${call.principal.message}` };
  }
  return {
    status: 401,
    code: 'UNAUTHORIZED',
    message:
      "This function requires a JWT of its project: send the app's anon key, a user's token or an API key as Authorization: Bearer",
  };
}

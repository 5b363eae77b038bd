import { decodeJwt } from 'jose';
import type { Callers } from '../../http/caller.js';
import { ApiError } from '../../http/errors.js';
import { Call } from '../../http/routes/route.js';
import type { Actor } from '../../lib/actor/actor.js';
import { type RestKey, restActorOf } from '../rest/rest-gateway.js';

// Who a channel acts as. The socket's `apikey` (checked at the upgrade by /rest/v1's gateway step) says whose API it
// speaks: this instance's (console accounts, their API keys) or an app's (its anon key, its end users, its service
// key). Each join, and each `access_token` message after it, carries the token the channel acts with; it is
// verified like a bearer on /rest/v1 and mapped to the actor by the same rules (features/rest/rest-gateway.ts). A
// join without a token is signed out: the app's anon caller, or, with this instance's key, refused (the console
// signs in first). The token's expiry closes the channel when it comes (realtime-hub.ts).

/** ChannelCaller is who a channel acts as, and when its token expires (ms since the epoch; null: never). */
export interface ChannelCaller {
  actor: Actor;
  expiresAt: number | null;
}

/** CallerRefusal is a token the channel cannot act with, and the reason the client is told. */
export interface CallerRefusal {
  refused: string;
}

const PATH = '/realtime/v1/websocket';

/** tokenOf reads the access token of a join or refresh payload (`access_token`, or the older `user_token`). */
export function tokenOf(payload: unknown): string | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const record = payload as Record<string, unknown>;
  const token = record.access_token ?? record.user_token;
  return typeof token === 'string' && token.length > 0 && token.length < 8192 ? token : null;
}

function expiryOf(token: string): number | null {
  try {
    const exp = decodeJwt(token).exp;
    return typeof exp === 'number' ? exp * 1000 : null;
  } catch {
    return null;
  }
}

/** callerOf resolves the channel's actor from its token (null: signed out) and the socket's key. */
export async function callerOf(
  callers: Callers,
  key: RestKey,
  token: string | null,
  ip: string,
): Promise<ChannelCaller | CallerRefusal> {
  const call = new Call('GET', PATH, {}, token ? { authorization: `Bearer ${token}` } : {}, () => ip);
  await callers.anyone(call);
  const principal = call.principal;
  if (principal.kind === 'invalid' && principal.reason === 'expired' && token) {
    const exp = expiryOf(token);
    const ago = exp === null ? 0 : Math.max(0, Math.floor((Date.now() - exp) / 1000));
    return { refused: `InvalidJWTToken: Token has expired ${ago} seconds ago` };
  }
  let actor: Actor;
  try {
    actor = restActorOf(principal, key, 'realtime');
  } catch (error) {
    if (error instanceof ApiError) return { refused: `Unauthorized: ${error.message}` };
    throw error;
  }
  const signedIn = token !== null && (principal.kind === 'user' || principal.kind === 'endUser');
  return { actor, expiresAt: signedIn ? expiryOf(token) : null };
}

/** isSignedIn tells whether an actor may use private channels: a signed-in user, a console account or a service key. */
export function isSignedIn(actor: Actor): boolean {
  if (!actor.app) return true;
  return actor.endUser !== undefined || actor.app.role === 'service_role';
}

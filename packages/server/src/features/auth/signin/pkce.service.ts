import { createHash, randomUUID } from 'node:crypto';
import { ApiError } from '../../../http/errors.js';
import { randomToken, safeEqual, sha256 } from '../../../lib/crypto/tokens.js';
import type { AuthDeps } from '../auth-deps.js';
import { validationFailed } from '../protocol/gotrue-errors.js';
import type { SignInMethod } from '../sessions/sessions.service.js';
import type { UserRow } from '../users/user-pool.js';
import {
  deleteFlowState,
  type FlowStateRow,
  findFlowStateByAuthCode,
  insertFlowState,
  issueAuthCodeFor,
} from '../verification/flow-states.store.js';

// PKCE (RFC 7636) as GoTrue does it: a client that sends a code_challenge with a sign-in (an OAuth redirect, a
// magic link, a recovery or confirmation mail) is sent back with `?code=` instead of a session, and trades that
// code, with the verifier only it knows, at POST /token?grant_type=pkce. A flow lives FLOW_TTL_MS from its start
// (an OAuth flow must reach the callback by then), and its code AUTH_CODE_TTL_MS from its issue; both are single use.

const FLOW_TTL_MS = 3600_000;
const OAUTH_FLOW_TTL_MS = 10 * 60_000;
const AUTH_CODE_TTL_MS = 10 * 60_000;
const CHALLENGE = /^[a-zA-Z._~0-9-]{43,128}$/;

/** PkceParams are a request's code_challenge and its method, both or neither. */
export interface PkceParams {
  codeChallenge: string;
  codeChallengeMethod: 's256' | 'plain';
}

/** pkceParamsOf validates a request's PKCE parameters (GoTrue's messages); null for the implicit flow. */
export function pkceParamsOf(challenge?: string | null, method?: string | null): PkceParams | null {
  if (!challenge !== !method) {
    throw validationFailed('PKCE flow requires code_challenge_method and code_challenge');
  }
  if (!challenge || !method) return null;
  if (challenge.length < 43 || challenge.length > 128) {
    throw validationFailed('code challenge has to be between 43 and 128 characters');
  }
  if (!CHALLENGE.test(challenge)) {
    throw validationFailed(
      'code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes',
    );
  }
  const lower = method.toLowerCase();
  if (lower !== 's256' && lower !== 'plain') throw validationFailed('Invalid code_challenge_method');
  return { codeChallenge: challenge, codeChallengeMethod: lower };
}

/** FlowStart is what a new flow records. */
export interface FlowStart {
  kind: SignInMethod;
  redirectTo: string;
  pkce: PkceParams | null;
  provider?: string | null;
  linkUserId?: string | null;
  nonce?: string | null;
  providerVerifier?: string | null;
}

/** startFlow records a flow of the request's pool and returns its id (an OAuth flow's state). */
export async function startFlow<R extends UserRow>(deps: AuthDeps<R>, start: FlowStart): Promise<string> {
  const id = randomUUID();
  const at = deps.now();
  await insertFlowState(
    deps.ctx.db.kysely,
    {
      id,
      app_ref: deps.pool.app?.ref ?? '',
      kind: start.kind,
      provider: start.provider ?? null,
      user_id: null,
      link_user_id: start.linkUserId ?? null,
      code_challenge: start.pkce?.codeChallenge ?? null,
      code_challenge_method: start.pkce?.codeChallengeMethod ?? null,
      auth_code_hash: null,
      auth_code_issued_at: null,
      redirect_to: start.redirectTo,
      nonce: start.nonce ?? null,
      provider_verifier: start.providerVerifier ?? null,
      provider_token: null,
      provider_refresh_token: null,
      created_at: at.toISOString(),
    },
    new Date(at.getTime() - FLOW_TTL_MS).toISOString(),
  );
  return id;
}

/** flowExpired tells whether a flow is past its time (an OAuth flow's is shorter: it only waits for a redirect). */
export function flowExpired(flow: FlowStateRow, now: Date): boolean {
  const ttl = flow.kind === 'oauth' ? OAUTH_FLOW_TTL_MS : FLOW_TTL_MS;
  return now.getTime() > new Date(flow.created_at).getTime() + ttl;
}

/**
 * issueAuthCode records the user a flow signed in and returns the code the client trades; null when the flow was
 * used already (GoTrue's flow_state_already_used).
 */
export async function issueAuthCode<R extends UserRow>(
  deps: AuthDeps<R>,
  flowId: string,
  userId: string,
  providerTokens?: { token: string; refreshToken: string | null },
): Promise<string | null> {
  const code = randomUUID();
  const issued = await issueAuthCodeFor(deps.ctx.db.kysely, flowId, {
    user_id: userId,
    auth_code_hash: sha256(code),
    auth_code_issued_at: deps.now().toISOString(),
    ...(providerTokens
      ? { provider_token: providerTokens.token, provider_refresh_token: providerTokens.refreshToken }
      : {}),
  });
  return issued ? code : null;
}

function challengeOf(verifier: string, method: string): string {
  return method === 's256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
}

/**
 * redeemAuthCode is POST /token?grant_type=pkce: the flow of the code (of this pool, unexpired, unused) when the
 * verifier matches its challenge; the flow is deleted, so a code works once.
 */
export async function redeemAuthCode<R extends UserRow>(
  deps: AuthDeps<R>,
  authCode: string,
  codeVerifier: string,
): Promise<FlowStateRow & { user_id: string }> {
  if (!authCode || !codeVerifier) {
    throw validationFailed('invalid request: both auth code and code verifier should be non-empty');
  }
  const flow = await findFlowStateByAuthCode(deps.ctx.db.kysely, deps.pool.app?.ref ?? '', sha256(authCode));
  if (!flow?.user_id || !flow.code_challenge || !flow.code_challenge_method) {
    throw new ApiError(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found');
  }
  const issuedAt = new Date(flow.auth_code_issued_at ?? flow.created_at).getTime();
  if (deps.now().getTime() > issuedAt + AUTH_CODE_TTL_MS) {
    await deleteFlowState(deps.ctx.db.kysely, flow.id);
    throw new ApiError(422, 'flow_state_expired', 'invalid flow state, flow state has expired');
  }
  if (!safeEqual(challengeOf(codeVerifier, flow.code_challenge_method), flow.code_challenge)) {
    throw new ApiError(400, 'bad_code_verifier', 'code challenge does not match previously saved code verifier');
  }
  if (!(await deleteFlowState(deps.ctx.db.kysely, flow.id))) {
    throw new ApiError(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found');
  }
  return { ...flow, user_id: flow.user_id };
}

/** providerVerifier makes the PKCE verifier Basalt itself uses towards an OAuth provider, and its S256 challenge. */
export function providerVerifier(): { verifier: string; challenge: string } {
  const verifier = randomToken(48);
  return { verifier, challenge: challengeOf(verifier, 's256') };
}

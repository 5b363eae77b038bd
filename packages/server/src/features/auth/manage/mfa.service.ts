import { randomUUID } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';
import { ApiError } from '../../../http/errors.js';
import type { AuthDeps } from '../auth-deps.js';
import type { SignedInUser } from '../gateway/auth-guards.js';
import type { IssuedSession } from '../users/gotrue-user.js';
import {
  type ChallengeRow,
  claimTotpStep,
  deleteChallenge,
  deleteFactorOf,
  deleteUnverifiedFactors,
  type FactorRow,
  findChallengeOf,
  findFactorOf,
  insertChallenge,
  insertFactor,
  listFactorsOf,
  markChallengeVerified,
  updateFactorRow,
} from '../users/mfa.store.js';
import type { UserRow } from '../users/user-pool.js';
import '../users/session-events.js';

// MFA with TOTP (RFC 6238, the otpauth library; GoTrue's parameters: SHA-1, 6 digits, 30 s, one step of skew).
// Enrolling gives a secret, its otpauth:// URI and the URI as an SVG QR code; a challenge and a code from the
// authenticator verify the factor and raise the session to aal2. The secret is sealed under the owning account's
// data key. A code is accepted once: the factor remembers the last time step used, so the same code (or an older
// one) replayed within its window is refused. Guessing is limited per IP and per factor (auth-rate-limits.ts).

const TOTP = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
const SKEW_STEPS = 1;
// GoTrue's defaults: 10 factors per user, challenges valid 5 minutes, unverified factors dropped after 5 minutes.
const MAX_FACTORS = 10;
const CHALLENGE_TTL_MS = 300_000;
const UNVERIFIED_TTL_MS = 300_000;

const factorNotFound = () => new ApiError(404, 'mfa_factor_not_found', 'Factor not found');
const verificationFailed = () => new ApiError(422, 'mfa_verification_failed', 'Invalid TOTP code entered');

/** EnrolledFactor is POST /factors' answer: the factor and, once only, its secret, URI and QR code. */
export interface EnrolledFactor {
  id: string;
  type: 'totp';
  friendly_name: string;
  totp: { qr_code: string; secret: string; uri: string };
}

const secretLabel = (factorId: string) => `mfa factor ${factorId}`;

// supabase-js shows the QR code as `data:image/svg+xml;utf-8,<svg…>` without encoding it, so the SVG must hold no
// `#` (it would end the URL there): the library's hex colours become names.
const svgForDataUri = (svg: string) =>
  svg.replaceAll('"#ffffff"', '"white"').replaceAll('"#000000"', '"black"').replaceAll('#', '%23');

function requireNotAnonymous(user: SignedInUser<UserRow>): void {
  if (user.account.is_anonymous === 1) {
    throw new ApiError(403, 'no_authorization', 'Anonymous user not allowed to perform these actions');
  }
}

function requireMfa<R extends UserRow>(deps: AuthDeps<R>, action: 'enroll' | 'verify'): void {
  if (!deps.pool.settings.mfaEnabled) {
    throw new ApiError(
      422,
      `mfa_totp_${action}_not_enabled`,
      action === 'enroll' ? 'MFA enroll is disabled for TOTP' : 'MFA verification is disabled for TOTP',
    );
  }
}

/** enrollFactor is POST /factors: a new unverified TOTP factor of the signed-in user. */
export async function enrollFactor<R extends UserRow>(
  deps: AuthDeps<R>,
  user: SignedInUser<R>,
  input: { factorType: string; friendlyName: string; issuer: string | null },
): Promise<EnrolledFactor> {
  requireNotAnonymous(user);
  if (input.factorType === 'phone')
    throw new ApiError(422, 'mfa_phone_enroll_not_enabled', 'MFA enroll is disabled for Phone');
  if (input.factorType === 'webauthn') {
    throw new ApiError(422, 'mfa_webauthn_enroll_not_enabled', 'MFA enroll is disabled for WebAuthn');
  }
  if (input.factorType !== 'totp')
    throw new ApiError(400, 'validation_failed', 'factor_type needs to be totp, phone, or webauthn');
  requireMfa(deps, 'enroll');
  const db = deps.ctx.db;
  const t = deps.pool.tables;
  const at = deps.now();
  const { account } = user;
  await deleteUnverifiedFactors(db.kysely, t, account.id, new Date(at.getTime() - UNVERIFIED_TTL_MS).toISOString());
  const factors = await listFactorsOf(db.kysely, t, [account.id]);
  if (input.friendlyName && factors.some((f) => f.friendly_name === input.friendlyName)) {
    throw new ApiError(
      422,
      'mfa_factor_name_conflict',
      `A factor with the friendly name "${input.friendlyName}" for this user already exists`,
    );
  }
  if (factors.length >= MAX_FACTORS) {
    throw new ApiError(
      422,
      'too_many_enrolled_mfa_factors',
      'Maximum number of verified factors reached, unenroll to continue',
    );
  }
  const session = await deps.sessions.find(user.sessionId);
  if (factors.some((f) => f.status === 'verified') && session?.aal !== 'aal2') {
    throw new ApiError(403, 'insufficient_aal', 'AAL2 required to enroll a new factor');
  }

  const issuer = input.issuer || new URL(deps.pool.settings.siteUrl).host;
  const secret = new OTPAuth.Secret({ size: 20 });
  const totp = new OTPAuth.TOTP({ ...TOTP, issuer, label: account.email, secret });
  const uri = totp.toString();
  const qrCode = svgForDataUri(await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'H', margin: 1 }));
  const id = randomUUID();
  const sealed = await deps.base.secrets.seal(db, deps.pool.vaultAccountOf(account.id), secretLabel(id), secret.base32);
  await insertFactor(db.kysely, t, {
    id,
    account_id: account.id,
    friendly_name: input.friendlyName || null,
    factor_type: 'totp',
    status: 'unverified',
    secret: sealed,
    last_challenged_at: null,
    last_used_step: null,
    created_at: at.toISOString(),
    updated_at: at.toISOString(),
  });
  return { id, type: 'totp', friendly_name: input.friendlyName, totp: { qr_code: qrCode, secret: secret.base32, uri } };
}

async function loadFactor<R extends UserRow>(deps: AuthDeps<R>, user: SignedInUser<R>, id: string): Promise<FactorRow> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) {
    throw new ApiError(404, 'validation_failed', 'factor_id must be an UUID');
  }
  const factor = await findFactorOf(deps.ctx.db.kysely, deps.pool.tables, user.account.id, id.toLowerCase());
  if (!factor) throw factorNotFound();
  return factor;
}

/** challengeFactor is POST /factors/{id}/challenge: a challenge the next code answers, bound to the caller's IP. */
export async function challengeFactor<R extends UserRow>(
  deps: AuthDeps<R>,
  user: SignedInUser<R>,
  factorId: string,
  ip: string,
): Promise<{ id: string; type: string; expires_at: number }> {
  requireNotAnonymous(user);
  const factor = await loadFactor(deps, user, factorId);
  requireMfa(deps, 'verify');
  await deps.limits.attempt('mfa', { ip, subject: factor.id });
  const at = deps.now();
  const challenge: ChallengeRow = {
    id: randomUUID(),
    factor_id: factor.id,
    ip,
    created_at: at.toISOString(),
    verified_at: null,
  };
  await insertChallenge(deps.ctx.db.kysely, deps.pool.tables, challenge);
  await updateFactorRow(deps.ctx.db.kysely, deps.pool.tables, factor.id, { last_challenged_at: at.toISOString() });
  return {
    id: challenge.id,
    type: factor.factor_type,
    expires_at: Math.floor((at.getTime() + CHALLENGE_TTL_MS) / 1000),
  };
}

// The time step a code matches (within one step of skew), or null.
async function matchingStep<R extends UserRow>(
  deps: AuthDeps<R>,
  factor: FactorRow,
  code: string,
): Promise<number | null> {
  const base32 = await deps.base.secrets.open(
    deps.ctx.db,
    deps.pool.vaultAccountOf(factor.account_id),
    secretLabel(factor.id),
    factor.secret,
  );
  const totp = new OTPAuth.TOTP({ ...TOTP, secret: OTPAuth.Secret.fromBase32(base32) });
  const timestamp = deps.now().getTime();
  const delta = totp.validate({ token: code, timestamp, window: SKEW_STEPS });
  return delta === null ? null : totp.counter({ timestamp }) + delta;
}

/**
 * verifyFactor is POST /factors/{id}/verify: a code for a challenge. It verifies the factor (the first time), raises
 * the session to aal2 with a new refresh token, ends the user's other aal1 sessions and drops their unverified
 * factors. Returns the new session.
 */
export async function verifyFactor<R extends UserRow>(
  deps: AuthDeps<R>,
  user: SignedInUser<R>,
  factorId: string,
  input: { challengeId: string; code: string; ip: string },
): Promise<{ account: R; session: IssuedSession }> {
  requireNotAnonymous(user);
  const factor = await loadFactor(deps, user, factorId);
  requireMfa(deps, 'verify');
  if (!input.code) throw new ApiError(400, 'validation_failed', 'Code needs to be non-empty');
  await deps.limits.attempt('mfa', { ip: input.ip, subject: factor.id });
  const db = deps.ctx.db;
  const t = deps.pool.tables;
  const challenge = /^[0-9a-f-]{36}$/i.test(input.challengeId)
    ? await findChallengeOf(db.kysely, t, factor.id, input.challengeId.toLowerCase())
    : undefined;
  if (!challenge) {
    throw new ApiError(422, 'mfa_factor_not_found', 'MFA factor with the provided challenge ID not found');
  }
  if (challenge.verified_at !== null || challenge.ip !== input.ip) {
    throw new ApiError(422, 'mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.');
  }
  const at = deps.now();
  if (at.getTime() > new Date(challenge.created_at).getTime() + CHALLENGE_TTL_MS) {
    await deleteChallenge(db.kysely, t, challenge.id);
    throw new ApiError(
      422,
      'mfa_challenge_expired',
      `MFA challenge ${challenge.id} has expired, verify against another challenge or create a new challenge.`,
    );
  }
  const step = /^\d{6}$/.test(input.code) ? await matchingStep(deps, factor, input.code) : null;
  if (step === null) throw verificationFailed();

  const started = await db.transaction(async (scope) => {
    // A code is good once: a replay of it (or of an older one) finds the step taken.
    if (!(await claimTotpStep(scope.kysely, t, factor.id, step, at.toISOString()))) throw verificationFailed();
    if (!(await markChallengeVerified(scope.kysely, t, challenge.id, at.toISOString()))) throw verificationFailed();
    if (factor.status !== 'verified') {
      await updateFactorRow(scope.kysely, t, factor.id, { status: 'verified', updated_at: at.toISOString() });
    }
    await deleteUnverifiedFactors(scope.kysely, t, user.account.id);
    scope.publish('factors.changed', { userId: user.account.id, ref: deps.pool.app?.ref ?? null });
    return deps.sessions.raise(scope, user.account, user.sessionId, factor.id);
  });
  return { account: user.account, session: await deps.sessions.issue(user.account, started) };
}

/** unenrollFactor is DELETE /factors/{id}: a verified factor goes only from an aal2 session. */
export async function unenrollFactor<R extends UserRow>(
  deps: AuthDeps<R>,
  user: SignedInUser<R>,
  factorId: string,
): Promise<{ id: string }> {
  requireNotAnonymous(user);
  const factor = await loadFactor(deps, user, factorId);
  if (factor.status === 'verified' && (await deps.sessions.find(user.sessionId))?.aal !== 'aal2') {
    throw new ApiError(422, 'insufficient_aal', 'AAL2 required to unenroll verified factor');
  }
  await removeFactor(deps, user.account.id, factor);
  return { id: factor.id };
}

/** removeFactor deletes a factor and brings the sessions it raised back to aal1 (admin and user deletions). */
export async function removeFactor<R extends UserRow>(
  deps: AuthDeps<R>,
  userId: string,
  factor: FactorRow,
): Promise<void> {
  await deps.ctx.db.transaction(async (scope) => {
    await deleteFactorOf(scope.kysely, deps.pool.tables, userId, factor.id);
    await deps.sessions.lowerFactorSessions(scope, factor.id);
    scope.publish('factors.changed', { userId, ref: deps.pool.app?.ref ?? null });
  });
}

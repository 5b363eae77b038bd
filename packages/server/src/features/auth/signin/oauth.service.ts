import { ApiError } from '../../../http/errors.js';
import { publicSiteUrl } from '../../../http/public-origin.js';
import { randomToken } from '../../../lib/crypto/tokens.js';
import { recordAuthEvent } from '../../logs/log-events.js';
import type { AuthDeps } from '../auth-deps.js';
import { userBanned, validationFailed } from '../protocol/gotrue-errors.js';
import { ProviderError } from '../providers/oauth-http.js';
import type { ProviderProfile, ProviderSignIn } from '../providers/oauth-provider.js';
import { oauthProvider } from '../providers/oauth-providers.js';
import { isBanned } from '../sessions/sessions.service.js';
import { refreshProviders, storeIdentity } from '../signup/identities.service.js';
import { signupsOpen } from '../signup/signups-open.js';
import { registerUser } from '../signup/user-creation.service.js';
import { mergeMetadata, parseMetadata, UniqueViolation } from '../users/accounts.service.js';
import {
  deleteIdentityOf,
  findIdentityByProvider,
  listIdentitiesOf,
  updateIdentityRow,
} from '../users/identities.store.js';
import type { UserRow } from '../users/user-pool.js';
import { deleteFlowState, type FlowStateRow } from '../verification/flow-states.store.js';
import { issueAuthCode, type PkceParams, providerVerifier, startFlow } from './pkce.service.js';
import { startSignedInSession } from './sign-in.service.js';

// "Sign in with …" as GoTrue does it. GET /authorize records a flow (its id is the OAuth `state`, its nonce and
// Basalt's own PKCE verifier towards the provider) and sends the browser to the provider; GET /callback finds the
// flow by its state (an unknown, expired or used state fails), trades the code for the provider's profile, finds
// or makes the user, and sends the browser back: with the session in the fragment (implicit flow) or with `?code=`
// for POST /token?grant_type=pkce (when the client sent a code_challenge). An identity links to an existing user
// of the same address only when the provider says that address is verified.

/** callbackUrlOf is the redirect URI every provider is registered with: one for the console and every app. */
export const callbackUrlOf = <R extends UserRow>(deps: AuthDeps<R>) =>
  `${publicSiteUrl(deps.ctx.config)}/auth/v1/callback`;

/** AuthorizeInput is a validated GET /authorize (or /user/identities/authorize). */
export interface AuthorizeInput {
  provider: string;
  redirectTo: string | null;
  scopes: string | null;
  pkce: PkceParams | null;
  /** Query parameters passed on to the provider (prompt, login_hint, …). */
  extra: Record<string, string>;
  /** The signed-in user an identity is being linked to (linkIdentity). */
  linkUserId?: string;
}

/** providerUrl starts a flow and returns the provider's authorization URL. */
export async function providerUrl<R extends UserRow>(deps: AuthDeps<R>, input: AuthorizeInput): Promise<string> {
  const name = input.provider.toLowerCase();
  const config = deps.pool.settings.providers.find((p) => p.id === name);
  if (!config) throw validationFailed(`Unsupported provider: Provider ${input.provider} could not be found`);
  const nonce = randomToken(24);
  const { verifier, challenge } = providerVerifier();
  const state = await startFlow(deps, {
    kind: 'oauth',
    provider: config.id,
    redirectTo: deps.verification.redirectTarget(input.redirectTo),
    pkce: input.pkce,
    linkUserId: input.linkUserId ?? null,
    nonce,
    providerVerifier: verifier,
  });
  try {
    return await oauthProvider(config).authorizationUrl({
      state,
      redirectUri: callbackUrlOf(deps),
      scopes: input.scopes,
      nonce,
      codeChallenge: challenge,
      extra: input.extra,
    });
  } catch (error) {
    await deleteFlowState(deps.ctx.db.kysely, state);
    if (error instanceof ProviderError) throw validationFailed(`Unsupported provider: ${error.message}`);
    throw error;
  }
}

/** OAuthFailure is a callback that ends in an error redirect (GoTrue's error, error_code, error_description). */
export class OAuthFailure extends Error {
  constructor(
    readonly error: string,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const fail = (code: string, message: string, error = 'access_denied') => new OAuthFailure(error, code, message);

/**
 * userOfProfile is GoTrue's account linking, for a callback and an ID token alike: the identity's user; else, with
 * a verified address, the user of that address; else a new user (confirmed when the provider verified the address
 * or the pool confirms at once). With `linkUserId` the identity joins that user instead. Throws OAuthFailure.
 */
export async function userOfProfile<R extends UserRow>(
  deps: AuthDeps<R>,
  input: { provider: string; profile: ProviderProfile; linkUserId: string | null },
): Promise<{ user: R; created: boolean }> {
  const { provider, profile, linkUserId } = input;
  const signIn = { profile };
  const db = deps.ctx.db;
  const t = deps.pool.tables;
  const scopeId = deps.pool.identityScope;
  return db.transaction(async (scope) => {
    const trx = scope.kysely;
    const now = deps.now();
    const at = now.toISOString();
    const known = await findIdentityByProvider(trx, t, scopeId, provider, profile.subject);

    if (linkUserId) {
      if (known) {
        throw fail(
          'identity_already_exists',
          known.account_id === linkUserId ? 'Identity is already linked' : 'Identity is already linked to another user',
        );
      }
      const target = await deps.pool.users.findById(trx, linkUserId);
      if (!target) throw fail('user_not_found', 'Linking target user not found');
      await storeIdentity(deps, trx, target.id, identityOf(provider, signIn), now);
      return {
        user: await refreshProviders(deps, trx, await madePermanent(deps, trx, target, provider, profile), now),
        created: false,
      };
    }

    // A banned user is refused before anything of this sign-in is written (GoTrue's transaction rolls it back).
    const unlessBanned = (user: R) => {
      if (isBanned(user, now)) throw fail('user_banned', userBanned(403).message);
    };
    if (known) {
      const user = await deps.pool.users.findById(trx, known.account_id);
      if (!user) throw fail('user_not_found', 'User not found');
      unlessBanned(user);
      await updateIdentityRow(trx, t, known.id, {
        identity_data: JSON.stringify(profile.claims),
        email: profile.email?.toLowerCase() ?? null,
        last_sign_in_at: at,
        updated_at: at,
      });
      const userMetadata = mergeMetadata(parseMetadata(user.user_metadata), profile.claims);
      return { user: (await deps.pool.users.update(trx, user.id, { userMetadata }, now)) ?? user, created: false };
    }

    if (!profile.email) throw fail('validation_failed', 'Error getting user email from external provider');
    const existing = await deps.pool.users.findByEmail(trx, profile.email);
    if (existing) {
      if (!profile.emailVerified) {
        throw fail(
          'provider_email_needs_verification',
          `Unverified email with ${provider}. Verify the email with ${provider} in order to sign in`,
        );
      }
      unlessBanned(existing);
      await storeIdentity(deps, trx, existing.id, identityOf(provider, signIn), now);
      const userMetadata = mergeMetadata(parseMetadata(existing.user_metadata), profile.claims);
      const confirmed = existing.email_confirmed_at ? {} : { email_confirmed_at: at };
      const updated = (await deps.pool.users.update(trx, existing.id, { userMetadata, ...confirmed }, now)) ?? existing;
      return { user: await refreshProviders(deps, trx, updated, now), created: false };
    }

    if (!(await signupsOpen(deps))) throw fail('signup_disabled', 'Signups not allowed for this instance');
    const confirmed = profile.emailVerified || deps.autoconfirm;
    const user = await registerUser(
      deps,
      scope,
      {
        email: profile.email,
        passwordHash: null,
        userMetadata: profile.claims,
        confirmed,
        identity: identityOf(provider, signIn),
      },
      now,
    );
    return { user, created: true };
  });
}

// GoTrue's linking of an anonymous user: the provider's verified address becomes the user's, and the user a
// permanent one. An unverified address is refused (GoTrue mails it; here nothing changes, the transaction ends).
async function madePermanent<R extends UserRow>(
  deps: AuthDeps<R>,
  trx: Parameters<typeof storeIdentity>[1],
  user: R,
  provider: string,
  profile: ProviderProfile,
): Promise<R> {
  if (user.is_anonymous !== 1 || !profile.email) return user;
  if (!profile.emailVerified) {
    throw fail(
      'email_not_confirmed',
      `Unverified email with ${provider}. Verify the email with ${provider} to link it`,
    );
  }
  const email = profile.email.toLowerCase();
  if (await deps.pool.users.findByEmail(trx, email)) {
    throw fail('email_exists', 'A user with this email address has already been registered');
  }
  const at = deps.now().toISOString();
  const changes = { email, email_confirmed_at: at, is_anonymous: 0 };
  return (await deps.pool.users.update(trx, user.id, changes, deps.now())) ?? user;
}

function identityOf(provider: string, { profile }: { profile: ProviderProfile }) {
  return { provider, providerId: profile.subject, email: profile.email, data: profile.claims };
}

/** CallbackOutcome is where the callback sends the browser: the flow's target and what to add to it. */
export interface CallbackOutcome {
  target: string;
  pkce: boolean;
  /** `?code=` for a PKCE flow. */
  query?: Record<string, string>;
  /** The session of an implicit flow. */
  fragment?: Record<string, string>;
}

/**
 * completeSignIn trades a callback's code for the user and a session or an auth code. Throws OAuthFailure for
 * everything the browser should be told about.
 */
export async function completeSignIn<R extends UserRow>(
  deps: AuthDeps<R>,
  flow: FlowStateRow,
  input: { code: string; ip: string; userAgent: string | null },
): Promise<CallbackOutcome> {
  const pkce = flow.code_challenge !== null;
  const config = deps.pool.settings.providers.find((p) => p.id === flow.provider);
  if (!config || !flow.provider) throw fail('provider_disabled', 'Provider is no longer enabled');
  // An implicit flow is spent by its first callback: a replayed state finds nothing.
  if (!pkce && !(await deleteFlowState(deps.ctx.db.kysely, flow.id))) {
    throw fail('bad_oauth_state', 'OAuth state not found or expired');
  }
  let signIn: ProviderSignIn;
  try {
    signIn = await oauthProvider(config).exchange({
      code: input.code,
      redirectUri: callbackUrlOf(deps),
      nonce: flow.nonce ?? '',
      codeVerifier: flow.provider_verifier ?? '',
    });
  } catch (error) {
    if (error instanceof ProviderError) throw fail('bad_oauth_callback', error.message, 'server_error');
    throw error;
  }
  let resolved: { user: R; created: boolean };
  try {
    resolved = await userOfProfile(deps, {
      provider: config.id,
      profile: signIn.profile,
      linkUserId: flow.link_user_id,
    });
  } catch (error) {
    if (error instanceof UniqueViolation)
      throw fail('email_exists', 'A user with this email address has already been registered');
    throw error;
  }
  const { user } = resolved;
  if (isBanned(user, deps.now())) throw fail('user_banned', userBanned(403).message);
  if (!user.email_confirmed_at) {
    await deps.verification.send(user, 'signup', { redirectTo: flow.redirect_to }).catch(() => undefined);
    throw fail(
      'provider_email_needs_verification',
      `Unverified email with ${config.id}. A confirmation email has been sent to your ${config.id} email`,
    );
  }
  if (resolved.created) {
    recordAuthEvent(deps.ctx.logs, {
      kind: 'signed_up',
      accountId: deps.pool.activityAccountOf(user),
      email: user.email,
      ip: input.ip,
      confirmed: true,
      ...(deps.pool.app ? { endUserId: user.id } : {}),
    });
  }
  if (pkce) {
    const code = await issueAuthCode(deps, flow.id, user.id, {
      token: signIn.accessToken,
      refreshToken: signIn.refreshToken,
    });
    if (!code) throw fail('flow_state_already_used', 'State has already been used');
    return { target: flow.redirect_to, pkce, query: { code } };
  }
  const { session } = await startSignedInSession(deps, user, {
    method: 'oauth',
    client: { ip: input.ip, userAgent: input.userAgent },
  });
  return {
    target: flow.redirect_to,
    pkce,
    fragment: {
      access_token: session.accessToken,
      expires_at: String(session.expiresAt),
      expires_in: String(session.expiresIn),
      provider_token: signIn.accessToken,
      ...(signIn.refreshToken ? { provider_refresh_token: signIn.refreshToken } : {}),
      refresh_token: session.refreshToken,
      token_type: 'bearer',
    },
  };
}

/** unlinkIdentity is DELETE /user/identities/{id}: a user keeps at least one identity. */
export async function unlinkIdentity<R extends UserRow>(deps: AuthDeps<R>, user: R, identityId: string): Promise<void> {
  const t = deps.pool.tables;
  const identities = await listIdentitiesOf(deps.ctx.db.kysely, t, [user.id]);
  if (identities.length <= 1) {
    throw new ApiError(422, 'single_identity_not_deletable', 'User must have at least 1 identity after unlinking');
  }
  if (!identities.some((i) => i.id === identityId)) {
    throw new ApiError(422, 'identity_not_found', "Identity doesn't exist");
  }
  await deps.ctx.db.transaction(async ({ kysely: trx }) => {
    await deleteIdentityOf(trx, t, user.id, identityId);
    await refreshProviders(deps, trx, user, deps.now());
  });
}

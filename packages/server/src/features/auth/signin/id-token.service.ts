import { ApiError } from '../../../http/errors.js';
import { recordAuthEvent } from '../../logs/log-events.js';
import type { AuthDeps, ClientInfo } from '../auth-deps.js';
import { emailExists, userBanned, validationFailed } from '../protocol/gotrue-errors.js';
import { ProviderError } from '../providers/oauth-http.js';
import type { OAuthProviderConfig, ProviderProfile } from '../providers/oauth-provider.js';
import { oauthProvider } from '../providers/oauth-providers.js';
import { isBanned } from '../sessions/sessions.service.js';
import { UniqueViolation } from '../users/accounts.service.js';
import type { UserRow } from '../users/user-pool.js';
import { OAuthFailure, userOfProfile } from './oauth.service.js';
import { type SignedIn, startSignedInSession } from './sign-in.service.js';

// signInWithIdToken as GoTrue does it (POST /token?grant_type=id_token): a native or one-tap client got an ID token
// from the provider itself and hands it in. It is checked against the provider's issuer and keys (oauth-oidc.ts),
// then becomes a sign-in exactly as a callback's profile does (userOfProfile). Only OpenID Connect providers issue
// ID tokens: GitHub, GitLab and unknown names get GoTrue's "not allowed". Every refusal happens before anything is
// written, except an unverified address, which gets its confirmation mail as in the redirect flow.

const GOOGLE_ISSUER = 'https://accounts.google.com';

/** IdTokenGrant is a validated POST /token?grant_type=id_token. */
export interface IdTokenGrant {
  idToken: string;
  provider: string | null;
  nonce: string | null;
  accessToken: string | null;
  issuer: string | null;
  /** The signed-in user the identity is linked to (linkIdentity with a token). */
  linkUserId: string | null;
  client: ClientInfo;
}

// GoTrue's statuses for the account-linking refusals (they are redirect errors in the callback).
const FAILURE_STATUS: Record<string, number> = {
  signup_disabled: 422,
  provider_email_needs_verification: 422,
  identity_already_exists: 422,
  email_exists: 422,
  email_not_confirmed: 422,
  user_banned: 403,
  user_not_found: 404,
};

function providerOf(providers: readonly OAuthProviderConfig[], grant: IdTokenGrant): OAuthProviderConfig {
  const name = (grant.provider ?? (grant.issuer === GOOGLE_ISSUER ? 'google' : '')).toLowerCase();
  const config = providers.find((p) => p.id === name);
  if (name === 'google' && !config) {
    throw new ApiError(400, 'provider_disabled', `Provider (issuer "${GOOGLE_ISSUER}") is not enabled`);
  }
  if (name.startsWith('custom:') && !config) throw validationFailed(`Custom provider "${name}" not found`);
  if (!config || (config.kind !== 'google' && config.kind !== 'oidc')) {
    throw validationFailed(`Custom OIDC provider "${grant.provider ?? ''}" not allowed`);
  }
  return config;
}

async function verifiedProfile(config: OAuthProviderConfig, grant: IdTokenGrant): Promise<ProviderProfile> {
  const provider = oauthProvider(config);
  if (!provider.verifyIdToken) throw validationFailed(`Custom OIDC provider "${config.id}" not allowed`);
  try {
    return await provider.verifyIdToken({
      idToken: grant.idToken,
      nonce: grant.nonce,
      accessToken: grant.accessToken,
    });
  } catch (error) {
    // The issuer's answers and the token's checks alike: a 400 that names what failed, never a 500.
    if (error instanceof ProviderError) throw validationFailed(error.message);
    throw error;
  }
}

/**
 * signInWithIdToken verifies a provider's ID token and signs its user in (or links the identity to
 * `linkUserId`), making the user when sign-ups allow it. Counted per IP like the other token grants.
 */
export async function signInWithIdToken<R extends UserRow>(
  deps: AuthDeps<R>,
  grant: IdTokenGrant,
): Promise<SignedIn<R>> {
  await deps.limits.attempt('id_token', { ip: grant.client.ip });
  const config = providerOf(deps.pool.settings.providers, grant);
  const profile = await verifiedProfile(config, grant);
  let resolved: { user: R; created: boolean };
  try {
    resolved = await userOfProfile(deps, { provider: config.id, profile, linkUserId: grant.linkUserId });
  } catch (error) {
    if (error instanceof UniqueViolation) throw emailExists();
    if (error instanceof OAuthFailure) throw new ApiError(FAILURE_STATUS[error.code] ?? 400, error.code, error.message);
    throw error;
  }
  const { user } = resolved;
  if (isBanned(user, deps.now())) throw userBanned(403);
  if (!user.email_confirmed_at) {
    await deps.verification.send(user, 'signup', { redirectTo: null }).catch(() => undefined);
    throw new ApiError(
      422,
      'provider_email_needs_verification',
      `Unverified email with ${config.id}. A confirmation email has been sent to your ${config.id} email`,
    );
  }
  if (resolved.created) {
    recordAuthEvent(deps.ctx.logs, {
      kind: 'signed_up',
      accountId: deps.pool.activityAccountOf(user),
      email: user.email,
      ip: grant.client.ip,
      confirmed: true,
      ...(deps.pool.app ? { endUserId: user.id } : {}),
    });
  }
  return startSignedInSession(deps, user, { method: 'oauth', client: grant.client });
}

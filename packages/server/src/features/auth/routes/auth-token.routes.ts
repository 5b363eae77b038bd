import { ApiError } from '../../../http/errors.js';
import type { Route } from '../../../http/routes/route.js';
import { clientOf } from '../auth-deps.js';
import { depsOf } from '../gateway/auth-gateway.js';
import { requireGoTrueUser } from '../gateway/auth-guards.js';
import type { AuthRails } from '../gateway/auth-rails.js';
import { goTrueSessionOf } from '../manage/user-view.js';
import { emailNotConfirmed, invalidCredentials, userBanned, validationFailed } from '../protocol/gotrue-errors.js';
import {
  idTokenGrantSchema,
  parseGoTrue,
  passwordGrantSchema,
  pkceGrantSchema,
  queryOf,
  refreshGrantSchema,
} from '../protocol/gotrue-input.js';
import { isBanned, type SignInMethod } from '../sessions/sessions.service.js';
import { signInWithIdToken } from '../signin/id-token.service.js';
import { redeemAuthCode } from '../signin/pkce.service.js';
import { SignInRefused, signInWithPassword, startSignedInSession } from '../signin/sign-in.service.js';

const REFUSALS = {
  invalid_credentials: () => invalidCredentials(),
  email_not_confirmed: emailNotConfirmed,
  user_banned: () => userBanned(400),
};

/** authTokenRoutes serves POST /auth/v1/token with grant_type password, refresh_token, pkce and id_token. */
export function authTokenRoutes({ pools, keyed }: AuthRails): Route[] {
  return [
    {
      ...keyed,
      method: 'POST',
      url: '/auth/v1/token',
      handler: async (call) => {
        const deps = depsOf(call, pools);
        const grantType = queryOf(call.query).grant_type;
        const client = clientOf(call);

        if (grantType === 'password') {
          const body = parseGoTrue(passwordGrantSchema, call.body);
          if (!body.email) {
            if (body.phone) throw new ApiError(400, 'phone_provider_disabled', 'Phone logins are disabled');
            throw validationFailed('missing email or phone');
          }
          if (!body.password) throw validationFailed('missing password');
          const signedIn = await signInWithPassword(deps, { email: body.email, password: body.password, client }).catch(
            (error: unknown) => {
              throw error instanceof SignInRefused ? REFUSALS[error.reason]() : error;
            },
          );
          const { weakness } = signedIn;
          return {
            ...(await goTrueSessionOf(deps, signedIn.session, signedIn.account)),
            ...(weakness ? { weak_password: { message: weakness.message, reasons: weakness.reasons } } : {}),
          };
        }

        if (grantType === 'refresh_token') {
          await deps.limits.refresh(client.ip);
          const body = parseGoTrue(refreshGrantSchema, call.body);
          const { account, session } = await deps.sessions.refresh(body.refresh_token);
          return goTrueSessionOf(deps, session, account);
        }

        if (grantType === 'pkce') {
          await deps.limits.attempt('verify', { ip: client.ip });
          const body = parseGoTrue(pkceGrantSchema, call.body);
          const flow = await redeemAuthCode(deps, body.auth_code ?? '', body.code_verifier ?? '');
          const account = await deps.pool.users.findById(deps.ctx.db.kysely, flow.user_id);
          if (!account)
            throw new ApiError(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found');
          if (isBanned(account, deps.now())) throw userBanned(400);
          const signedIn = await startSignedInSession(deps, account, { method: flow.kind as SignInMethod, client });
          return {
            ...(await goTrueSessionOf(deps, signedIn.session, signedIn.account)),
            ...(flow.provider_token ? { provider_token: flow.provider_token } : {}),
            ...(flow.provider_refresh_token ? { provider_refresh_token: flow.provider_refresh_token } : {}),
          };
        }

        if (grantType === 'id_token') {
          const body = parseGoTrue(idTokenGrantSchema, call.body);
          if (!body.id_token) throw validationFailed('id_token required');
          if (!body.provider && (!body.client_id || !body.issuer)) {
            throw validationFailed('provider or client_id and issuer required');
          }
          // linkIdentity with a token: the bearer's user gets the identity (and a new session, as GoTrue answers).
          const linkUserId = body.link_identity ? (await requireGoTrueUser(call, deps)).account.id : null;
          const signedIn = await signInWithIdToken(deps, {
            idToken: body.id_token,
            provider: body.provider ?? null,
            nonce: body.nonce || null,
            accessToken: body.access_token || null,
            issuer: body.issuer ?? null,
            linkUserId,
            client,
          });
          return goTrueSessionOf(deps, signedIn.session, signedIn.account);
        }

        throw invalidCredentials('unsupported_grant_type');
      },
    },
  ];
}

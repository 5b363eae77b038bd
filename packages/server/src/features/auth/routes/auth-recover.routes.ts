import { ApiError } from '../../../http/errors.js';
import { type Route, redirect } from '../../../http/routes/route.js';
import { type AuthDeps, type ClientInfo, clientOf } from '../auth-deps.js';
import { depsOf } from '../gateway/auth-gateway.js';
import type { AuthRails } from '../gateway/auth-rails.js';
import { goTrueSessionOf } from '../manage/user-view.js';
import { validationFailed } from '../protocol/gotrue-errors.js';
import { gotrueEmail, parseGoTrue, queryOf, recoverBodySchema, verifyBodySchema } from '../protocol/gotrue-input.js';
import { isBanned } from '../sessions/sessions.service.js';
import { issueAuthCode, pkceParamsOf, startFlow } from '../signin/pkce.service.js';
import { type Proof, redeemProof, startSignedInSession } from '../signin/sign-in.service.js';
import type { UserRow } from '../users/user-pool.js';

// Redeems a proof and signs the user in with amr "otp".
async function verifyAndSignIn(deps: AuthDeps<UserRow>, client: ClientInfo, type: string, proof: Proof) {
  const { account } = await redeemProof(deps, type, proof);
  return startSignedInSession(deps, account, { method: 'otp', client });
}

/** authRecoverRoutes serves POST /recover, POST /verify and the mail links' GET /verify. */
export function authRecoverRoutes({ pools, keyed, link }: AuthRails): Route[] {
  return [
    {
      ...keyed,
      method: 'POST',
      url: '/auth/v1/recover',
      handler: async (call) => {
        const deps = depsOf(call, pools);
        const body = parseGoTrue(recoverBodySchema, call.body);
        const pkce = pkceParamsOf(body.code_challenge, body.code_challenge_method);
        await deps.limits.attempt('recover', { ip: clientOf(call).ip, email: body.email });
        const account = await deps.pool.users.findByEmail(deps.ctx.db.kysely, gotrueEmail(body.email));
        // Always {} (and the same minute's limit) so that the answer does not tell which addresses have accounts.
        if (!account || isBanned(account, deps.now())) await deps.limits.unsentMail(body.email, 'recovery');
        else {
          const redirectTo = queryOf(call.query).redirect_to ?? null;
          const flowStateId = pkce
            ? await startFlow(deps, {
                kind: 'recovery',
                pkce,
                redirectTo: deps.verification.redirectTarget(redirectTo),
              })
            : null;
          await deps.verification.send(account, 'recovery', { redirectTo, flowStateId });
        }
        return {};
      },
    },

    {
      ...keyed,
      method: 'POST',
      url: '/auth/v1/verify',
      handler: async (call) => {
        const deps = depsOf(call, pools);
        const body = parseGoTrue(verifyBodySchema, call.body);
        // A malformed address is a 400, as GoTrue answers it, before it reaches the limits or the lookup.
        const email = body.email ? gotrueEmail(body.email) : undefined;
        await deps.limits.attempt('verify', { ip: clientOf(call).ip, email });
        if (!body.token === !body.token_hash) throw validationFailed('Verify requires either a token or a token hash');
        let proof: Proof;
        if (body.token_hash) proof = { tokenHash: body.token_hash };
        else if (email) proof = { email, code: body.token ?? '' };
        else throw validationFailed('Verify requires an email address with the token');
        const signedIn = await verifyAndSignIn(deps, clientOf(call), body.type, proof);
        return goTrueSessionOf(deps, signedIn.session, signedIn.account);
      },
    },

    // The link in mails: verify, then send the browser on with the session in the URL fragment, where
    // supabase-js (detectSessionInUrl) picks it up.
    {
      ...link,
      method: 'GET',
      url: '/auth/v1/verify',
      handler: async (call) => {
        const deps = depsOf(call, pools);
        const query = queryOf(call.query);
        const target = deps.verification.redirectTarget(query.redirect_to).split('#')[0] ?? '';
        const withFragment = (fragment: Record<string, string>) =>
          redirect(`${target}#${new URLSearchParams(fragment).toString()}`, 303);
        try {
          if (!query.token || !query.type) throw validationFailed('Verify requires a token and a type');
          await deps.limits.attempt('verify', { ip: clientOf(call).ip });
          const redeemed = await redeemProof(deps, query.type, { tokenHash: query.token });
          if (redeemed.flowStateId) {
            // A PKCE client trades this code (and its verifier) for the session at POST /token?grant_type=pkce.
            const code = await issueAuthCode(deps, redeemed.flowStateId, redeemed.account.id);
            if (!code) throw new ApiError(404, 'flow_state_not_found', 'No valid flow state found for user.');
            const url = new URL(target);
            url.searchParams.set('code', code);
            return redirect(url.toString(), 303);
          }
          const { session } = await startSignedInSession(deps, redeemed.account, {
            method: 'otp',
            client: clientOf(call),
          });
          return withFragment({
            access_token: session.accessToken,
            expires_at: String(session.expiresAt),
            expires_in: String(session.expiresIn),
            refresh_token: session.refreshToken,
            token_type: 'bearer',
            type: query.type,
          });
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          const expired = error.code === 'otp_expired';
          return withFragment({
            error: expired ? 'access_denied' : 'invalid_request',
            error_code: error.code,
            error_description: expired ? 'Email link is invalid or has expired' : error.message,
          });
        }
      },
    },
  ];
}

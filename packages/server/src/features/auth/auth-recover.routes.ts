import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../../http/errors.js';
import { findAccountWithEmail } from './accounts.service.js';
import { type AuthDeps, clientOf } from './auth-deps.js';
import { userBanned, validationFailed } from './gotrue-errors.js';
import { gotrueEmail, parseGoTrue, queryOf, recoverBodySchema, verifyBodySchema } from './gotrue-input.js';
import { toGoTrueSession } from './gotrue-user.js';
import { isBanned } from './sessions.service.js';
import { startSignedInSession } from './sign-in.service.js';
import type { VerificationService } from './verification.service.js';

type Proof = Parameters<VerificationService['redeem']>[1];

/** authRecoverRoutes serves POST /recover, POST /verify and the mail links' GET /verify (§2.6.7–§2.6.8). */
export async function authRecoverRoutes(app: FastifyInstance, { deps }: { deps: AuthDeps }): Promise<void> {
  // Redeems a proof and signs the account in with amr "otp".
  async function verifyAndSignIn(request: Parameters<typeof clientOf>[0], type: string, proof: Proof) {
    const { account } = await deps.verification.redeem(type, proof);
    if (isBanned(account, deps.now())) throw userBanned(403);
    return startSignedInSession(deps, account, { method: 'otp', client: clientOf(request) });
  }

  app.post('/auth/v1/recover', async (request) => {
    const body = parseGoTrue(recoverBodySchema, request.body);
    await deps.limits.attempt('recover', { ip: clientOf(request).ip, email: body.email });
    const account = await findAccountWithEmail(deps.ctx.db.kysely, gotrueEmail(body.email));
    // Always {} so that the answer does not tell which addresses have accounts.
    if (account)
      await deps.verification.send(account, 'recovery', { redirectTo: queryOf(request.query).redirect_to ?? null });
    return {};
  });

  app.post('/auth/v1/verify', async (request) => {
    const body = parseGoTrue(verifyBodySchema, request.body);
    await deps.limits.attempt('verify', { ip: clientOf(request).ip, email: body.email });
    if (!body.token === !body.token_hash) throw validationFailed('Verify requires either a token or a token hash');
    let proof: Proof;
    if (body.token_hash) proof = { tokenHash: body.token_hash };
    else if (body.email) proof = { email: body.email, code: body.token ?? '' };
    else throw validationFailed('Verify requires an email address with the token');
    const signedIn = await verifyAndSignIn(request, body.type, proof);
    return toGoTrueSession(signedIn.session, signedIn.account);
  });

  // The link in mails: verify, then send the browser on with the session in the URL fragment, where
  // supabase-js (detectSessionInUrl) picks it up.
  app.get('/auth/v1/verify', async (request, reply) => {
    const query = queryOf(request.query);
    const target = deps.verification.redirectTarget(query.redirect_to).split('#')[0];
    const redirect = (fragment: Record<string, string>, r: FastifyReply) =>
      r.redirect(`${target}#${new URLSearchParams(fragment).toString()}`, 303);
    try {
      if (!query.token || !query.type) throw validationFailed('Verify requires a token and a type');
      await deps.limits.attempt('verify', { ip: clientOf(request).ip });
      const { session } = await verifyAndSignIn(request, query.type, { tokenHash: query.token });
      return redirect(
        {
          access_token: session.accessToken,
          expires_at: String(session.expiresAt),
          expires_in: String(session.expiresIn),
          refresh_token: session.refreshToken,
          token_type: 'bearer',
          type: query.type,
        },
        reply,
      );
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const expired = error.code === 'otp_expired';
      return redirect(
        {
          error: expired ? 'access_denied' : 'invalid_request',
          error_code: error.code,
          error_description: expired ? 'Email link is invalid or has expired' : error.message,
        },
        reply,
      );
    }
  });
}

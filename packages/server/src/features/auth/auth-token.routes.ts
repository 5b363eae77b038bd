import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../http/errors.js';
import { type AuthDeps, clientOf } from './auth-deps.js';
import { emailNotConfirmed, invalidCredentials, userBanned, validationFailed } from './gotrue-errors.js';
import { parseGoTrue, passwordGrantSchema, queryOf, refreshGrantSchema } from './gotrue-input.js';
import { toGoTrueSession } from './gotrue-user.js';
import { SignInRefused, signInWithPassword } from './sign-in.service.js';

const REFUSALS = {
  invalid_credentials: () => invalidCredentials(),
  email_not_confirmed: emailNotConfirmed,
  user_banned: () => userBanned(400),
};

/** authTokenRoutes serves POST /auth/v1/token with grant_type password and refresh_token (§2.6.2–§2.6.3). */
export async function authTokenRoutes(app: FastifyInstance, { deps }: { deps: AuthDeps }): Promise<void> {
  app.post('/auth/v1/token', async (request) => {
    const grantType = queryOf(request.query).grant_type;
    const client = clientOf(request);

    if (grantType === 'password') {
      const body = parseGoTrue(passwordGrantSchema, request.body);
      await deps.limits.attempt('signin', { ip: client.ip, email: body.email });
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
        ...toGoTrueSession(signedIn.session, signedIn.account),
        ...(weakness ? { weak_password: { message: weakness.message, reasons: weakness.reasons } } : {}),
      };
    }

    if (grantType === 'refresh_token') {
      await deps.limits.refresh(client.ip);
      const body = parseGoTrue(refreshGrantSchema, request.body);
      const { account, session } = await deps.sessions.refresh(body.refresh_token);
      return toGoTrueSession(session, account);
    }

    throw invalidCredentials('unsupported_grant_type');
  });
}

import type { FastifyInstance } from 'fastify';
import { checkMetadataUsername } from './accounts.service.js';
import { type AuthDeps, clientOf } from './auth-deps.js';
import { clashError, featureDisabled, userAlreadyExists, validationFailed, weakPassword } from './gotrue-errors.js';
import { gotrueEmail, parseGoTrue, queryOf, signupBodySchema } from './gotrue-input.js';
import { fakeGoTrueUser, toGoTrueSession, toGoTrueUser } from './gotrue-user.js';
import { passwordWeakness } from './passwords.js';
import { signUp } from './registration.service.js';

/** authSignupRoutes serves POST /auth/v1/signup (protocol §2.6.1). */
export async function authSignupRoutes(app: FastifyInstance, { deps }: { deps: AuthDeps }): Promise<void> {
  app.post('/auth/v1/signup', async (request) => {
    const body = parseGoTrue(signupBodySchema, request.body);
    const client = clientOf(request);
    await deps.limits.attempt('signup', { ip: client.ip, email: body.email });
    if (!body.email) {
      if (body.phone) throw featureDisabled('phone_provider_disabled', 'Phone signups are disabled');
      throw featureDisabled('anonymous_provider_disabled', 'Anonymous sign-ins are disabled');
    }
    const email = gotrueEmail(body.email);
    if (!body.password) throw validationFailed('Signup requires a valid password');
    const weakness = passwordWeakness(body.password);
    if (weakness) throw weakPassword(weakness);
    const userMetadata = body.data ?? {};
    checkMetadataUsername(userMetadata);

    const outcome = await signUp(deps, {
      email,
      password: body.password,
      userMetadata,
      redirectTo: queryOf(request.query).redirect_to ?? null,
      client,
    }).catch((error: unknown) => {
      throw clashError(error, userAlreadyExists);
    });
    switch (outcome.kind) {
      case 'signed_in':
        return toGoTrueSession(outcome.session, outcome.account);
      case 'confirmation_sent':
        return toGoTrueUser(outcome.account);
      case 'exists_confirmed':
        return fakeGoTrueUser(outcome.email, deps.now());
    }
  });
}

import { ApiError } from '../../../http/errors.js';
import type { Route } from '../../../http/routes/route.js';
import { clientOf } from '../auth-deps.js';
import { depsOf } from '../gateway/auth-gateway.js';
import type { AuthRails } from '../gateway/auth-rails.js';
import { goTrueSessionOf, goTrueUserOf } from '../manage/user-view.js';
import {
  clashError,
  featureDisabled,
  userAlreadyExists,
  validationFailed,
  weakPassword,
} from '../protocol/gotrue-errors.js';
import { gotrueEmail, parseGoTrue, queryOf, signupBodySchema } from '../protocol/gotrue-input.js';
import { pkceParamsOf, startFlow } from '../signin/pkce.service.js';
import { signUp, signUpAnonymously } from '../signup/registration.service.js';
import { signupsOpen } from '../signup/signups-open.js';
import { checkMetadataUsername } from '../users/accounts.service.js';
import { fakeGoTrueUser } from '../users/gotrue-user.js';
import { passwordWeakness } from '../users/passwords.js';

/** authSignupRoutes serves POST /auth/v1/signup. */
export function authSignupRoutes({ pools, keyed }: AuthRails): Route[] {
  return [
    {
      ...keyed,
      method: 'POST',
      url: '/auth/v1/signup',
      handler: async (call) => {
        const deps = depsOf(call, pools);
        const body = parseGoTrue(signupBodySchema, call.body);
        const client = clientOf(call);
        if (!body.email && !body.phone) {
          // signInAnonymously(): off unless the app allows it.
          if (!deps.pool.settings.anonymousSignIns) {
            throw featureDisabled('anonymous_provider_disabled', 'Anonymous sign-ins are disabled');
          }
          await deps.limits.attempt('anonymous', { ip: client.ip });
          if (!(await signupsOpen(deps))) {
            throw featureDisabled('signup_disabled', 'Signups not allowed for this instance');
          }
          const userMetadata = body.data ?? {};
          checkMetadataUsername(userMetadata);
          const anonymous = await signUpAnonymously(deps, { userMetadata, client }).catch((error: unknown) => {
            throw clashError(error, userAlreadyExists);
          });
          return goTrueSessionOf(deps, anonymous.session, anonymous.account);
        }
        await deps.limits.attempt('signup', { ip: client.ip, email: body.email });
        if (!body.email) throw new ApiError(400, 'phone_provider_disabled', 'Phone signups are disabled');
        const pkce = pkceParamsOf(body.code_challenge, body.code_challenge_method);
        const email = gotrueEmail(body.email);
        if (!(await signupsOpen(deps)))
          throw featureDisabled('signup_disabled', 'Signups not allowed for this instance');
        if (!body.password) throw validationFailed('Signup requires a valid password');
        const weakness = passwordWeakness(body.password, deps.pool.settings.passwordPolicy);
        if (weakness) throw weakPassword(weakness);
        const userMetadata = body.data ?? {};
        checkMetadataUsername(userMetadata);
        const redirectTo = queryOf(call.query).redirect_to ?? null;

        const outcome = await signUp(deps, {
          email,
          password: body.password,
          userMetadata,
          redirectTo,
          client,
          flowStateId:
            pkce && !deps.autoconfirm
              ? await startFlow(deps, {
                  kind: 'email/signup',
                  pkce,
                  redirectTo: deps.verification.redirectTarget(redirectTo),
                })
              : null,
        }).catch((error: unknown) => {
          throw clashError(error, userAlreadyExists);
        });
        switch (outcome.kind) {
          case 'signed_in':
            return goTrueSessionOf(deps, outcome.session, outcome.account);
          case 'confirmation_sent':
            return goTrueUserOf(deps, outcome.account);
          case 'exists_confirmed':
            return fakeGoTrueUser(outcome.email, deps.now());
        }
      },
    },
  ];
}

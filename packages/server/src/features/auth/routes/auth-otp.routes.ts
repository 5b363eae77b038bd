import { ApiError } from '../../../http/errors.js';
import type { Route } from '../../../http/routes/route.js';
import { clientOf } from '../auth-deps.js';
import { depsOf } from '../gateway/auth-gateway.js';
import { requireGoTrueUser } from '../gateway/auth-guards.js';
import type { AuthRails } from '../gateway/auth-rails.js';
import { validationFailed } from '../protocol/gotrue-errors.js';
import { gotrueEmail, otpBodySchema, parseGoTrue, queryOf, resendBodySchema } from '../protocol/gotrue-input.js';
import { resendMail, sendMagicLink } from '../signin/magic-link.service.js';
import { pkceParamsOf } from '../signin/pkce.service.js';

const phoneDisabled = () => new ApiError(400, 'phone_provider_disabled', 'Unsupported phone provider');

// SAML single sign-on and passkeys are not served (docs/auth.md says why): GoTrue's answers when they are off.
const samlDisabled = async () => {
  throw new ApiError(404, 'saml_provider_disabled', 'SAML 2.0 is disabled');
};
const passkeysDisabled = async () => {
  throw new ApiError(404, 'passkey_disabled', 'Passkeys are disabled');
};
const PASSKEY_POSTS = [
  'authentication/options',
  'authentication/verify',
  'registration/options',
  'registration/verify',
];

/** authOtpRoutes serves POST /otp (magic links and codes), POST /resend and GET /reauthenticate. */
export function authOtpRoutes({ pools, keyed }: AuthRails): Route[] {
  return [
    {
      ...keyed,
      method: 'POST',
      url: '/auth/v1/otp',
      handler: async (call) => {
        const deps = depsOf(call, pools);
        const body = parseGoTrue(otpBodySchema, call.body);
        if (body.email && body.phone) {
          throw validationFailed('Only an email address or phone number should be provided');
        }
        if (body.phone) throw phoneDisabled();
        if (!body.email) throw validationFailed('One of email or phone must be set');
        if (body.channel) throw validationFailed('Channel should only be specified with Phone OTP');
        const pkce = pkceParamsOf(body.code_challenge, body.code_challenge_method);
        const email = gotrueEmail(body.email);
        const client = clientOf(call);
        await deps.limits.attempt('otp', { ip: client.ip, email });
        await sendMagicLink(deps, {
          email,
          data: body.data ?? {},
          createUser: body.create_user ?? true,
          pkce,
          redirectTo: queryOf(call.query).redirect_to ?? null,
          client,
        });
        return {};
      },
    },

    {
      ...keyed,
      method: 'POST',
      url: '/auth/v1/resend',
      handler: async (call) => {
        const deps = depsOf(call, pools);
        const body = parseGoTrue(resendBodySchema, call.body);
        const type = body.type ?? '';
        if (type === 'sms' || type === 'phone_change') throw phoneDisabled();
        if (type !== 'signup' && type !== 'email_change') {
          throw validationFailed('Missing one of these types: signup, email_change, sms, phone_change');
        }
        if (body.email && body.phone)
          throw validationFailed('Only an email address or phone number should be provided.');
        if (body.phone) throw phoneDisabled();
        if (!body.email) {
          throw validationFailed(
            type === 'signup' ? 'Type provided requires an email address' : 'Missing email address or phone number',
          );
        }
        const pkce = pkceParamsOf(body.code_challenge, body.code_challenge_method);
        const email = gotrueEmail(body.email);
        await deps.limits.attempt('resend', { ip: clientOf(call).ip, email });
        await resendMail(deps, { type, email, pkce, redirectTo: queryOf(call.query).redirect_to ?? null });
        return {};
      },
    },

    // A 6-digit code to the user's address, which PUT /user takes as `nonce` for a password change.
    {
      ...keyed,
      method: 'GET',
      url: '/auth/v1/reauthenticate',
      handler: async (call) => {
        const deps = depsOf(call, pools);
        const { account } = await requireGoTrueUser(call, deps);
        if (account.is_anonymous === 1) {
          throw validationFailed('Reauthentication requires the user to have an email or a phone number');
        }
        if (!account.email_confirmed_at) {
          throw new ApiError(422, 'email_not_confirmed', 'Please verify your email first.');
        }
        await deps.verification.send(account, 'reauthentication', { redirectTo: null });
        return {};
      },
    },

    { ...keyed, method: 'POST', url: '/auth/v1/sso', handler: samlDisabled },
    { ...keyed, method: 'GET', url: '/auth/v1/sso/saml/metadata', handler: samlDisabled },
    { ...keyed, method: 'POST', url: '/auth/v1/sso/saml/acs', handler: samlDisabled },
    ...PASSKEY_POSTS.map(
      (path): Route => ({
        ...keyed,
        method: 'POST',
        url: `/auth/v1/passkeys/${path}`,
        handler: passkeysDisabled,
      }),
    ),
    { ...keyed, method: 'GET', url: '/auth/v1/passkeys', handler: passkeysDisabled },
    { ...keyed, method: 'DELETE', url: '/auth/v1/passkeys/:id', handler: passkeysDisabled },
  ];
}

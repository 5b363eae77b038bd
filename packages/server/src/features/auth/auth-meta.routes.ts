import { BASALT_VERSION, SITE_NAME } from '@basalt/shared';
import type { FastifyInstance } from 'fastify';
import type { AuthDeps } from './auth-deps.js';
import { featureDisabled } from './gotrue-errors.js';

// Out-of-scope client calls (protocol §2.6.10) answer a clear 422 rather than a bare 404.
const DISABLED: Array<[method: 'GET' | 'POST', path: string, code: string, msg: string]> = [
  ['POST', '/otp', 'otp_disabled', 'Sign-in with magic links and one-time codes is not enabled on this instance'],
  [
    'POST',
    '/resend',
    'feature_disabled',
    'Resending mails is not available; sign up again to get a new confirmation mail',
  ],
  ['POST', '/invite', 'feature_disabled', 'Invitations are not available on this instance'],
  ['POST', '/admin/invite', 'feature_disabled', 'Invitations are not available on this instance'],
  ['POST', '/admin/generate_link', 'feature_disabled', 'Generating links is not available on this instance'],
  ['POST', '/sso', 'feature_disabled', 'Single sign-on is not enabled on this instance'],
  ['GET', '/reauthenticate', 'feature_disabled', 'Reauthentication is not enabled on this instance'],
  ['GET', '/authorize', 'provider_disabled', 'OAuth providers are not enabled on this instance'],
];

/** authMetaRoutes serves the JWKS, /settings, /health and the answers for out-of-scope endpoints. */
export async function authMetaRoutes(app: FastifyInstance, { deps }: { deps: AuthDeps }): Promise<void> {
  const jwks = async (_request: unknown, reply: { header(name: string, value: string): unknown }) => {
    reply.header('Cache-Control', 'public, max-age=600');
    return deps.ctx.tokens.jwks();
  };
  // supabase-js fetches it under /auth/v1; the root path is the usual OpenID place.
  app.get('/.well-known/jwks.json', jwks);
  app.get('/auth/v1/.well-known/jwks.json', jwks);

  app.get('/auth/v1/settings', async () => ({
    external: { email: true, phone: false, anonymous_users: false, github: false, google: false },
    disable_signup: false,
    mailer_autoconfirm: deps.autoconfirm,
    phone_autoconfirm: false,
    sms_provider: '',
    saml_enabled: false,
    passkeys_enabled: false,
  }));

  app.get('/auth/v1/health', async () => ({
    version: BASALT_VERSION,
    name: SITE_NAME,
    description: `${SITE_NAME} serves a GoTrue-compatible auth API`,
  }));

  for (const [method, path, code, msg] of DISABLED) {
    app.route({
      method,
      url: `/auth/v1${path}`,
      handler: async () => {
        throw featureDisabled(code, msg);
      },
    });
  }
}

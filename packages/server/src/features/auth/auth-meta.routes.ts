import { BASALT_VERSION, SITE_NAME } from '@basalt/shared';
import type { FastifyInstance } from 'fastify';
import { type AuthPools, depsOf } from './auth-gateway.js';
import { signupsOpen } from './signups-open.js';

// GoTrue's provider names, each reported under `external` (true when configured).
const GOTRUE_PROVIDERS = [
  'apple',
  'azure',
  'bitbucket',
  'discord',
  'facebook',
  'snapchat',
  'figma',
  'fly',
  'github',
  'gitlab',
  'google',
  'keycloak',
  'kakao',
  'linkedin',
  'linkedin_oidc',
  'notion',
  'spotify',
  'slack',
  'slack_oidc',
  'workos',
  'twitch',
  'twitter',
  'zoom',
];

/** authMetaRoutes serves the JWKS, /settings and /health. */
export async function authMetaRoutes(app: FastifyInstance, { pools }: { pools: AuthPools }): Promise<void> {
  const jwks = async (_request: unknown, reply: { header(name: string, value: string): unknown }) => {
    reply.header('Cache-Control', 'public, max-age=600');
    return pools.console.ctx.tokens.jwks();
  };
  // supabase-js fetches it under /auth/v1; the root path is the usual OpenID place.
  app.get('/.well-known/jwks.json', jwks);
  app.get('/auth/v1/.well-known/jwks.json', jwks);

  // Exactly what the request's pool offers. Basalt adds `mfa_enabled` and `providers` (id and button label of
  // every configured provider, custom OpenID Connect ones included), which GoTrue's clients ignore.
  app.get('/auth/v1/settings', async (request) => {
    const deps = depsOf(request, pools);
    const { pool, autoconfirm } = deps;
    const { settings } = pool;
    const configured = new Set(settings.providers.map((p) => p.id));
    const external: Record<string, boolean> = { anonymous_users: settings.anonymousSignIns };
    for (const name of GOTRUE_PROVIDERS) external[name] = configured.has(name);
    Object.assign(external, { email: true, phone: false });
    return {
      external,
      disable_signup: !(await signupsOpen(deps)),
      mailer_autoconfirm: autoconfirm,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
      saml_private_key_next_configured: false,
      passkeys_enabled: false,
      mfa_enabled: settings.mfaEnabled,
      providers: settings.providers.map((p) => ({ id: p.id, name: p.name })),
    };
  });

  app.get('/auth/v1/health', async () => ({
    version: BASALT_VERSION,
    name: SITE_NAME,
    description: `${SITE_NAME} serves a GoTrue-compatible auth API`,
  }));
}

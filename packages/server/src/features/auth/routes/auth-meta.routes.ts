import { BASALT_VERSION, SITE_NAME } from '@basalt/shared';
import { answer, type Route } from '../../../http/routes/route.js';
import { depsOf } from '../gateway/auth-gateway.js';
import type { AuthRails } from '../gateway/auth-rails.js';
import { signupsOpen } from '../signup/signups-open.js';

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
export function authMetaRoutes({ pools, keyed, browser }: AuthRails): Route[] {
  const jwks = async () =>
    answer(await pools.console.ctx.tokens.jwks(), { headers: { 'Cache-Control': 'public, max-age=600' } });
  return [
    // supabase-js fetches it under /auth/v1; the root path is the usual OpenID place.
    { ...browser, method: 'GET', url: '/.well-known/jwks.json', handler: jwks },
    { ...browser, method: 'GET', url: '/auth/v1/.well-known/jwks.json', handler: jwks },
    // Exactly what the request's pool offers. Basalt adds `mfa_enabled` and `providers` (id and button label of
    // every configured provider, custom OpenID Connect ones included), which GoTrue's clients ignore.
    {
      ...keyed,
      method: 'GET',
      url: '/auth/v1/settings',
      handler: async (call) => {
        const deps = depsOf(call, pools);
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
      },
    },
    {
      ...browser,
      method: 'GET',
      url: '/auth/v1/health',
      handler: () => ({
        version: BASALT_VERSION,
        name: SITE_NAME,
        description: `${SITE_NAME} serves a GoTrue-compatible auth API`,
      }),
    },
  ];
}

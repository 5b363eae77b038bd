import { BASALT_VERSION, type ConsoleConfig, SITE_NAME } from '@basalt/shared';
import type { AppContext } from '../../app-context.js';
import { answer, type Route } from '../../http/routes/route.js';

/** configRoutes serve GET /api/config: what the console needs before anyone signs in. */
export function configRoutes(ctx: AppContext): Route[] {
  return [
    {
      method: 'GET',
      url: '/api/config',
      family: 'console',
      admit: [],
      handler: async () => {
        const instance = await ctx.instance.get();
        const config: ConsoleConfig = {
          siteName: SITE_NAME,
          anonKey: ctx.tokens.anonKey,
          databaseType: ctx.db.dialect.name,
          mailConfigured: ctx.config.smtpUrl !== null,
          version: BASALT_VERSION,
          signupsAllowed: instance.signupsAllowed,
          termsUrl: instance.termsUrl,
          siteUrl: ctx.config.siteUrlConfigured ? ctx.config.siteUrl : null,
        };
        return answer(config, { headers: { 'Cache-Control': 'no-cache' } });
      },
    },
  ];
}

import { BASALT_VERSION, type ConsoleConfig, SITE_NAME } from '@basalt/shared';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { answer, type Route } from '../../http/routes/route.js';
import type { TokenService } from '../auth/sessions/tokens.service.js';
import type { InstanceSettingsService } from '../instance/instance-settings.js';

/** ConfigRouteDeps is what GET /api/config reads of the server. */
export interface ConfigRouteDeps {
  db: Db;
  config: Pick<Config, 'smtpUrl' | 'siteUrl' | 'siteUrlConfigured'>;
  tokens: Pick<TokenService, 'anonKey'>;
  instance: InstanceSettingsService;
}

/** configRoutes serve GET /api/config: what the console needs before anyone signs in. */
export function configRoutes(ctx: ConfigRouteDeps): Route[] {
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

import type { Db } from '../../db/database.js';
import type { SecretSealer } from '../auth/auth-deps.js';
import type { TokenService } from '../auth/sessions/tokens.service.js';
import { type AppLookup, createAppLookup } from './app-lookup.js';
import type { SettingsDefaults } from './app-settings.js';

// What the apps feature needs of the instance, made once by buildApp (AppContext.apps) and given to whatever
// reaches an app: the signer of app keys, whether mail is delivered (a default of the settings), the public URL,
// and this process's lookup of apps by ref.

/** AppsConfig is the instance's part of every app. */
export interface AppsConfig extends SettingsDefaults {
  tokens: TokenService;
  /**
   * The URL apps talk to (SITE_URL, else the address of the current request: http/public-origin.ts): what
   * GET /api/app answers as `url`.
   */
  siteUrl: string;
  /** secrets seals the client secrets of apps' OAuth providers. */
  secrets: SecretSealer;
}

/** Apps is the apps feature of one open database: the instance's part of every app and the lookup of apps. */
export interface Apps {
  db: Db;
  config: AppsConfig;
  /** lookup finds apps by ref and recognises their keys, kept exact by the bus. */
  lookup: AppLookup;
}

/** createApps makes the apps feature over one open database; buildApp makes it once. */
export function createApps(db: Db, config: AppsConfig): Apps {
  return { db, config, lookup: createAppLookup(db, config) };
}

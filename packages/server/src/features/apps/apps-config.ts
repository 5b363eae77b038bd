import type { Db } from '../../db/database.js';
import type { SecretSealer } from '../auth/auth-deps.js';
import type { TokenService } from '../auth/tokens.service.js';
import type { SettingsDefaults } from './app-settings.js';

// What the apps feature needs of the instance, set once by buildApp (configureApps) and read wherever an app is
// reached: the signer of app keys, whether mail is delivered (a default of the settings) and the public URL.

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

const CONFIG = Symbol('apps config');

const holderOf = (db: Db) => db.state(CONFIG, () => ({ current: null as AppsConfig | null }));

/** configureApps sets the instance's part of every app for one open database; buildApp calls it once. */
export function configureApps(db: Db, config: AppsConfig): void {
  holderOf(db).current = config;
}

/** appsConfigOf returns what configureApps set. */
export function appsConfigOf(db: Db): AppsConfig {
  const config = holderOf(db).current;
  if (!config) throw new Error('apps: configureApps was not called for this database');
  return config;
}

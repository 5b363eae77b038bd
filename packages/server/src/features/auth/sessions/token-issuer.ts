import type { Kysely } from 'kysely';
import { writeSetting, writeSettingOnce } from '../../../db/instance-settings.store.js';
import type { SystemDatabase } from '../../../db/schema.js';

// Which URL an instance's access tokens name as their issuer (`<url>/auth/v1`, as GoTrue does). Every node of one
// database must name the same one, or each refuses the others' tokens. The URL the instance first started with is
// kept in the database, and a node without SITE_URL issues as that one, whatever its own port or host name: two
// nodes on one PostgreSQL agree without any setting. SITE_URL, when set, wins and becomes the stored URL, so that
// nodes started later without it agree with it; a node that changes it says so at start, since the nodes still
// issuing as the old URL refuse its tokens (and it theirs) until they restart.

const SITE_URL_SETTING = 'site_url';

/** TokenIssuer is the issuer of this node's access tokens and, when SITE_URL changed the stored URL, why. */
export interface TokenIssuer {
  issuer: string;
  /** A sentence for the start-up log when SITE_URL differs from the URL stored before; null otherwise. */
  changed: string | null;
}

/** tokenIssuerOf reads (at first start: stores) the instance's URL and returns the issuer this node signs as. */
export async function tokenIssuerOf(
  db: Kysely<SystemDatabase>,
  config: { siteUrl: string; siteUrlConfigured: boolean },
): Promise<TokenIssuer> {
  const stored = await writeSettingOnce(db, SITE_URL_SETTING, config.siteUrl);
  if (!config.siteUrlConfigured || stored === config.siteUrl) return { issuer: `${stored}/auth/v1`, changed: null };
  await writeSetting(db, SITE_URL_SETTING, config.siteUrl);
  return {
    issuer: `${config.siteUrl}/auth/v1`,
    changed:
      `SITE_URL (${config.siteUrl}) differs from the URL this instance issued its tokens as until now (${stored}): ` +
      `this node issues them as ${config.siteUrl}/auth/v1 and stores that URL as the instance's. Access tokens ` +
      `issued as ${stored}/auth/v1 are refused here, and nodes still running without SITE_URL or with another one ` +
      "refuse this one's until they restart: give every node the same SITE_URL, or none.",
  };
}

import type { IncomingHttpHeaders } from 'node:http';
import type { Kysely } from 'kysely';
import { readSetting, writeSettingOnce } from '../db/instance-settings.store.js';
import type { SystemDatabase } from '../db/schema.js';
import { hmacToken, randomToken, safeEqual } from '../lib/crypto/tokens.js';
import { ApiError } from './errors.js';

// A cookie session's CSRF token is an HMAC of the session cookie under a secret of the instance. A plain double
// submit (any value, as long as cookie and header match) is beaten by anyone who can plant a cookie in the
// victim's browser, a sibling subdomain for one; a token derived from the session cookie, which is httpOnly and
// never leaves the browser and this server, cannot be made up by them. The secret is kept in the database, so
// every process shares it and tokens outlive restarts; a token lives as long as its session cookie.

const SECRET_SETTING = 'csrf_secret';

/** CsrfTokens makes and checks the CSRF tokens of cookie sessions. */
export interface CsrfTokens {
  /** tokenFor is the CSRF token of a session cookie's value. */
  tokenFor(sessionCookie: string): string;
  /** check throws 403 csrf_invalid unless the request's X-CSRF-Token is the token of its session cookie. */
  check(headers: IncomingHttpHeaders, sessionCookie: string): void;
}

/** createCsrfTokens loads the instance's CSRF secret (creating it at first start). */
export async function createCsrfTokens(db: Kysely<SystemDatabase>): Promise<CsrfTokens> {
  const secret =
    (await readSetting(db, SECRET_SETTING)) ?? (await writeSettingOnce(db, SECRET_SETTING, randomToken(32)));
  const tokenFor = (sessionCookie: string) => hmacToken(secret, `csrf:${sessionCookie}`);
  return {
    tokenFor,
    check(headers, sessionCookie) {
      const sent = headers['x-csrf-token'];
      if (typeof sent !== 'string' || !safeEqual(sent, tokenFor(sessionCookie))) {
        throw new ApiError(
          403,
          'csrf_invalid',
          'Missing or invalid CSRF token. Fetch GET /api/csrf-token and send it as X-CSRF-Token.',
        );
      }
    },
  };
}

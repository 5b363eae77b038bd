import { type ApiScenario, type CookieSession, loginWithCookie, type TestUser } from './auth.fixtures.js';
import { type KeyedUser, signUpWithKey } from './public-api.fixtures.js';
import type { TestServer } from './test-server.js';

// Fixtures of the /api/user suites (profile, password, deletion): an account holder with every kind of
// credential, and the scenario rows those routes share.

/** AccountHolder is a signed-up user with an API key and a console cookie session: every credential a route meets. */
export interface AccountHolder extends KeyedUser {
  cookie: CookieSession;
}

/** signUpAccountHolder signs a user up, creates an API key for them and logs them into the console. */
export async function signUpAccountHolder(server: TestServer, user: TestUser): Promise<AccountHolder> {
  const keyed = await signUpWithKey(server, user);
  return { ...keyed, cookie: await loginWithCookie(server, user) };
}

/** bearer is the Authorization header for a user token, an API key, or a signed-in test user. */
export const bearer = (token: string | { accessToken: string }): Record<string, string> => ({
  authorization: `Bearer ${typeof token === 'string' ? token : token.accessToken}`,
});

/** fieldError is the error body that names one field's message (a 400, or a 409 with its own code). */
export const fieldError = (field: string, message: string, code = 'validation_failed') => ({
  code,
  message,
  validationErrors: { [field]: [message] },
});

/**
 * userRouteScenarios builds the scenario rows of one /api/user route, so a table of refusals reads one row a
 * line. `holder` is called when a row runs, after beforeAll.
 */
export function userRouteScenarios(method: string, url: string, holder: () => AccountHolder) {
  return {
    /**
     * credentialRefusals are the rows every /api/user write refuses before it reads the body: no credentials
     * (401), the holder's API key (403: only a signed-in person may change an account) and the holder's cookie
     * without the CSRF token (403).
     */
    credentialRefusals: (json: unknown): ApiScenario[] => [
      { name: 'no credentials', method, url, json, status: 401, expected: { code: 'unauthorized' } },
      {
        name: 'an API key',
        method,
        url,
        headers: () => holder().keyHeaders,
        json,
        status: 403,
        expected: { code: 'api_key_not_allowed' },
      },
      {
        name: 'a cookie without the CSRF token',
        method,
        url,
        headers: () => ({ cookie: holder().cookie.cookie }),
        json,
        status: 403,
        expected: { code: 'csrf_invalid' },
      },
    ],
    /** asHolder is a row sent with the holder's token: its name, the body, the status and the expected body. */
    asHolder: (name: string, json: unknown, status: number, expected?: Record<string, unknown>): ApiScenario => ({
      name,
      method,
      url,
      headers: () => holder().tokenHeaders,
      json,
      status,
      ...(expected ? { expected } : {}),
    }),
    /** malformedJson is the row that sends the holder's `body`, which is not JSON, as JSON. */
    malformedJson: (body: string): ApiScenario => ({
      name: 'malformed JSON',
      method,
      url,
      headers: () => ({ ...holder().tokenHeaders, 'content-type': 'application/json' }),
      body,
      status: 400,
      expected: { code: 'bad_json' },
    }),
  };
}

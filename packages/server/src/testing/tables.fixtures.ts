import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database.js';
import type { TestServer } from './test-server.js';

// Named accounts for the tables, records, history and stats suites. Each is a real `accounts` row with a session
// and an access token signed for it (a token counts only while its session lives), so the suites do not depend
// on the sign-up endpoints.

/** AccountName names the fixture accounts. */
export type AccountName = 'alice' | 'bob';

/** SignedInAccount is a fixture account with the headers of its requests. */
export interface SignedInAccount {
  accountId: string;
  email: string;
  headers: Record<string, string>;
}

/** insertAccount adds a bare account row and returns its id. */
export async function insertAccount(db: Db, email: string): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await db.kysely
    .insertInto('accounts')
    .values({
      id,
      email,
      is_admin: 0,
      user_metadata: '{}',
      app_metadata: '{}',
      marketing_emails: 0,
      is_anonymous: 0,
      email_confirmed_at: now,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

/** signIn creates the named account on a test server and signs an access token for it. */
export async function signIn(server: TestServer, name: AccountName): Promise<SignedInAccount> {
  const email = `${name}-${randomUUID().slice(0, 8)}@example.test`;
  const accountId = await insertAccount(server.app.basalt.db, email);
  const sessionId = randomUUID();
  const now = new Date().toISOString();
  await server.app.basalt.db.kysely
    .insertInto('auth_sessions')
    .values({
      id: sessionId,
      account_id: accountId,
      amr: '[]',
      aal: 'aal1',
      cookie_token_hash: null,
      user_agent: null,
      ip: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const { token } = await server.app.basalt.tokens.signAccessToken({
    userId: accountId,
    sessionId,
    email,
    appMetadata: {},
    userMetadata: {},
    amr: [],
  });
  return { accountId, email, headers: { authorization: `Bearer ${token}` } };
}

/** signInAll signs in every fixture account. */
export async function signInAll(server: TestServer): Promise<Record<AccountName, SignedInAccount>> {
  return { alice: await signIn(server, 'alice'), bob: await signIn(server, 'bob') };
}

import { randomUUID } from 'node:crypto';
import type { DialectName } from '../db/dialect/dialect.js';
import { startAuthServer, users } from './auth.fixtures.js';
import { type AuthPoolUnderTest, authClient, poolsUnderTest } from './auth-flows.fixtures.js';
import { type FakeIssuer, type IdTokenClaims, startFakeIssuer } from './oidc.fixtures.js';
import type { TestServer } from './test-server.js';

// The signInWithIdToken suites' world: a local issuer handing out ID tokens for one client id, configured as
// `custom:fake` for the console accounts (the environment) and for an app's users (its settings, beside a GitHub
// provider, which issues no ID tokens).

/** ID_TOKEN_PROVIDER is the provider name both pools know the local issuer by. */
export const ID_TOKEN_PROVIDER = 'custom:fake';
const CLIENT_ID = 'fake-client';

/** IdTokenWorld is a running server, its two pools (console accounts first) and the issuer. */
export interface IdTokenWorld {
  server: TestServer;
  fake: FakeIssuer;
  /** pool is 0 for the console accounts, 1 for the app's users. */
  pool(index: number): AuthPoolUnderTest;
  /** emailsOf lists the pool's users' addresses (admin API). */
  emailsOf(pool: AuthPoolUnderTest): Promise<Array<string | undefined>>;
  close(): Promise<void>;
}

/** startIdTokenWorld starts the issuer and a server on a dialect with the provider in both pools. */
export async function startIdTokenWorld(dialect: DialectName): Promise<IdTokenWorld> {
  const fake = await startFakeIssuer(CLIENT_ID);
  const server = await startAuthServer(dialect, {
    oauthProviders: [
      {
        kind: 'oidc',
        id: ID_TOKEN_PROVIDER,
        name: 'Fake',
        clientId: CLIENT_ID,
        clientSecret: 'console-secret',
        url: fake.issuer,
      },
    ],
  });
  const pools = await poolsUnderTest(server, users.erin);
  await pools[1]?.patchSettings({
    providers: [
      { kind: 'oidc', name: 'Fake', clientId: CLIENT_ID, clientSecret: 'app-secret', url: fake.issuer },
      { kind: 'github', clientId: 'gh-client', clientSecret: 'gh-secret', url: 'http://127.0.0.1:9' },
    ],
  });
  return {
    server,
    fake,
    pool(index) {
      const pool = pools[index];
      if (!pool) throw new Error(`no pool ${index}`);
      return pool;
    },
    async emailsOf(pool) {
      const listed = await authClient(server, pool.serviceKey).auth.admin.listUsers({ perPage: 1000 });
      return (listed.data.users ?? []).map((u) => u.email);
    },
    async close() {
      await server.close();
      await fake.close();
    },
  };
}

/** idTokenPerson is someone new to both pools, with a verified address. */
export function idTokenPerson(label: string): IdTokenClaims {
  const id = randomUUID().slice(0, 8);
  return { sub: `${label}-${id}`, email: `${label}-${id}@fake.test`, email_verified: true, name: 'Ada Fake' };
}

import { DEFAULT_PLANS } from '@basalt/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { users } from '../../testing/auth.fixtures.js';
import { type KeyedUser, signUpWithKey } from '../../testing/public-api.fixtures.js';
import { createTestProject } from '../../testing/sql.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';

// The plan's cap of database connections: counted against the account that registers them (as in its usage),
// refused with 403 beyond it and nothing stored, never for an unlimited cap or an administrator of the instance, and
// only where quotas are enforced (QUOTAS=enforce, or Stripe configured): not by default, nor with METERING=off.

const connection = (name: string) => ({
  name,
  provider: 'CUSTOM',
  engine: 'POSTGRESQL',
  connectionString: 'postgres://app:pw@db.example.com:5432/app',
});

describe.each(testDialects)('database connections cap (%s)', (dialect) => {
  let server: TestServer;
  let admin: KeyedUser;
  let alice: KeyedUser;
  let bob: KeyedUser;
  let project: string;

  const register = (user: KeyedUser, name: string, projectId = project) =>
    server.request('POST', `/api/projects/${projectId}/database-connections`, {
      headers: user.tokenHeaders,
      json: connection(name),
    });
  const listed = async () =>
    (await server.request('GET', `/api/projects/${project}/database-connections`, { headers: alice.tokenHeaders }))
      .body as Array<{ id: number; name: string; userId: string }>;
  const assign = (user: KeyedUser, planId: string) =>
    server.request('PUT', `/api/billing/accounts/${user.id}/plan`, { headers: admin.tokenHeaders, json: { planId } });

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      authRateLimit: 1000,
      billing: loadConfig({ QUOTAS: 'enforce' }).billing,
    });
    admin = await signUpWithKey(server, users.dave);
    alice = await signUpWithKey(server, users.alice);
    bob = await signUpWithKey(server, users.bob);
    project = await createTestProject(server, alice.id, [{ accountId: bob.id, role: 'DEVELOPER' }]);
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  it('refuses a connection beyond the free plan’s one, storing nothing, and says what to do', async () => {
    expect((await register(alice, 'first')).status).toBe(201);
    const refused = await register(alice, 'second');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      code: 'connection_quota_exceeded',
      message:
        'Your Free plan allows 1 database connection and you have registered 1; upgrade your plan or remove a connection to add another',
    });
    expect((await listed()).map((c) => c.name)).toEqual(['first']);
    const usage = await server.request('GET', '/api/billing/usage', { headers: alice.tokenHeaders });
    expect(usage.body).toMatchObject({ databaseConnections: 1, maxDatabaseConnections: 1 });
    // Bad input is still a 400, not the cap.
    const bad = await server.request('POST', `/api/projects/${project}/database-connections`, {
      headers: alice.tokenHeaders,
      json: { name: '' },
    });
    expect(bad.status).toBe(400);
  });

  it('counts connections against the account that registers them, not the project’s owner', async () => {
    // bob, a developer of alice's project, has a free plan of his own.
    expect((await register(bob, 'bob’s')).status).toBe(201);
    expect((await register(bob, 'bob’s second')).status).toBe(403);
    expect((await listed()).filter((c) => c.userId === bob.id)).toHaveLength(1);
  });

  it('makes room when a connection is removed or the plan grows, and never refuses an unlimited cap', async () => {
    const mine = (await listed()).find((c) => c.name === 'first');
    expect(
      (
        await server.request('DELETE', `/api/projects/${project}/database-connections/${mine?.id}`, {
          headers: alice.tokenHeaders,
        })
      ).status,
    ).toBe(200);
    expect((await register(alice, 'replacement')).status).toBe(201);
    expect((await assign(alice, 'starter')).status).toBe(200);
    expect((await register(alice, 'starter 2')).status).toBe(201);
    expect((await register(alice, 'starter 3')).status).toBe(201);
    expect((await register(alice, 'starter 4')).status).toBe(403);
    expect((await assign(alice, 'enterprise')).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await register(alice, `unlimited ${i}`)).status).toBe(201);
  });

  it('lets only as many through as the cap when registrations arrive at once', async () => {
    const carol = await signUpWithKey(server, users.carol);
    const own = await createTestProject(server, carol.id);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => register(carol, `at once ${i}`, own)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 403, 403, 403, 403, 403]);
  });

  it('never refuses an administrator of the instance', async () => {
    const own = await createTestProject(server, admin.id);
    for (let i = 0; i < 3; i++) expect((await register(admin, `admin ${i}`, own)).status).toBe(201);
  });
});

describe.each(testDialects)('database connections by default (%s)', (dialect) => {
  it('caps nobody on an instance that sells no plans (no Stripe, no QUOTAS=enforce)', async () => {
    const server = await startTestServer(dialect, { authRateLimit: 1000, billing: loadConfig({}).billing });
    try {
      await signUpWithKey(server, users.dave);
      const alice = await signUpWithKey(server, users.alice);
      const project = await createTestProject(server, alice.id);
      for (let i = 0; i < 3; i++) {
        const res = await server.request('POST', `/api/projects/${project}/database-connections`, {
          headers: alice.tokenHeaders,
          json: connection(`c${i}`),
        });
        expect(res.status).toBe(201);
      }
      const usage = await server.request('GET', '/api/billing/usage', { headers: alice.tokenHeaders });
      expect(usage.body).toMatchObject({ databaseConnections: 3, maxDatabaseConnections: 1 });
    } finally {
      await server.close();
    }
  });
});

describe.each(testDialects)('database connections without metering (%s)', (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      authRateLimit: 1000,
      billing: { metering: false, meteringRefreshMs: 5000, quotas: 'enforce', plans: DEFAULT_PLANS, stripe: null },
    });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  it('enforces no cap with METERING=off, like the other quotas', async () => {
    const alice = await signUpWithKey(server, users.alice);
    const project = await createTestProject(server, alice.id);
    for (let i = 0; i < 3; i++) {
      const res = await server.request('POST', `/api/projects/${project}/database-connections`, {
        headers: alice.tokenHeaders,
        json: connection(`c${i}`),
      });
      expect(res.status).toBe(201);
    }
  });
});

import { CONSOLE_CLIENT_HEADER, DEFAULT_PLANS } from '@basalt/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../testing/auth.fixtures.js';
import { createTable, type KeyedUser, signUpWithKey } from '../../testing/public-api.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';

// The console's own calls are not API usage (issue 35: five Dashboard loads added fifteen calls), and the
// Dashboard's "API Requests" is Billing's "API Calls": one count.

const MARK = { [CONSOLE_CLIENT_HEADER]: '1' };

describe.each(testDialects)('the console’s calls and the usage meter (%s)', (dialect) => {
  let server: TestServer;
  let alice: KeyedUser;
  const rest = (extra: Record<string, string> = {}) => ({
    apikey: server.anonKey,
    authorization: `Bearer ${alice.accessToken}`,
    ...extra,
  });
  const usage = async () => {
    await server.app.basalt.usage?.flush();
    return (await server.request('GET', '/api/billing/usage', { headers: alice.tokenHeaders })).body.apiCalls;
  };

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      authRateLimit: 1000,
      billing: { metering: true, meteringRefreshMs: 100, quotas: 'enforce', plans: DEFAULT_PLANS, stripe: null },
    });
    alice = await signUpWithKey(server, users.alice);
    await createTable(server, alice, 'items');
  }, 60_000);
  afterAll(() => server?.close());

  it('does not count the console’s marked calls made with a console session', async () => {
    const before = await usage();
    const consoleCalls = [
      () => server.request('GET', '/rest/v1/tables?select=*', { headers: rest(MARK) }),
      () => server.request('GET', '/rest/v1/items?select=id', { headers: rest(MARK) }),
      () => server.request('GET', '/api/table/items', { headers: { ...alice.tokenHeaders, ...MARK } }),
      () => server.request('POST', '/api/table/items', { headers: { ...alice.tokenHeaders, ...MARK }, json: {} }),
    ];
    for (const call of consoleCalls) expect((await call()).status).toBeLessThan(500);
    expect(await usage()).toBe(before);
  });

  it('counts the same calls without the mark, and an API key’s or a wrong mark’s whatever they send', async () => {
    const before = await usage();
    const counted = [
      () => server.request('GET', '/rest/v1/items?select=id', { headers: rest() }),
      () => server.request('GET', '/api/table/items', { headers: alice.tokenHeaders }),
      () => server.request('GET', '/api/table/items', { headers: { ...alice.keyHeaders, ...MARK } }),
      () => server.request('GET', '/api/items', { headers: { ...alice.keyHeaders, ...MARK } }),
      () => server.request('GET', '/rest/v1/items', { headers: rest({ [CONSOLE_CLIENT_HEADER]: 'yes' }) }),
    ];
    for (const call of counted) expect((await call()).status).toBeLessThan(500);
    expect(await usage()).toBe(before + counted.length);
  });

  it('shows Billing’s API calls on the Dashboard: the two figures are one count', async () => {
    for (let i = 0; i < 3; i++) await server.request('GET', '/api/table/items', { headers: alice.keyHeaders });
    const calls = await usage();
    const stats = await server.request('GET', '/api/stats', { headers: alice.tokenHeaders });
    expect(stats.status).toBe(200);
    expect(stats.body.apiCalls).toBe(calls);
    expect(calls).toBeGreaterThanOrEqual(3);
    // Loading the Dashboard (its marked calls) leaves both unchanged.
    await server.request('GET', '/rest/v1/tables?select=*', { headers: rest(MARK) });
    await server.request('GET', '/api/stats', { headers: alice.tokenHeaders });
    expect(await usage()).toBe(calls);
    expect((await server.request('GET', '/api/stats', { headers: alice.tokenHeaders })).body.apiCalls).toBe(calls);
  });
});

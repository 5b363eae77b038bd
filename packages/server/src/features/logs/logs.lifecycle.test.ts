import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { type SignedInAccount, signIn } from '../../testing/tables.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';
import { listLogRows } from './logs.store.js';

// The log across a restart, and the 500 path: an unexpected error is logged with its context for administrators,
// while the account that made the request sees only its request's 500.

describe('the system log across a restart on sqlite', () => {
  it('keeps what was logged just before the app closed', async () => {
    const server = await startTestServer('sqlite');
    await server.request('GET', '/api/config');
    await server.request('GET', '/api/activity');
    // The writer stores once a second: these are (almost always) still in memory, and close() stores them
    // (log-writer.test.ts proves that part without a timer).
    await server.app.close();

    const reopened = await buildApp(server.config);
    try {
      const rows = await listLogRows(reopened.basalt.db.kysely, { service: 'api' }, { limit: 10, offset: 0 });
      expect(rows.map((r) => r.message)).toEqual(['GET /api/activity 401', 'GET /api/config 200']);
    } finally {
      await reopened.close();
      await fs.rm(server.config.dataDir, { recursive: true, force: true });
    }
  });
});

describe.each(testDialects)('an unexpected error on %s', (dialect) => {
  let server: TestServer;
  let admin: SignedInAccount;
  let alice: SignedInAccount;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await signIn(server, 'bob');
    await server.app.basalt.db.kysely
      .updateTable('accounts')
      .set({ is_admin: 1 })
      .where('id', '=', admin.accountId)
      .execute();
    alice = await signIn(server, 'alice');
    // Break the activity feed: its table is gone, so reading it fails in a way no handler expects.
    await server.app.basalt.db.kysely.schema.dropTable('activity_logs').execute();
  });
  afterAll(() => server.close());

  it('answers a bare 500 and logs the error with its stack for administrators only', async () => {
    const res = await server.request('GET', '/api/activity?page=1', { headers: alice.headers });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      message: 'Something went wrong on the server. Please try again.',
      code: 'internal_error',
    });
    await server.app.basalt.logs.flush();

    const forAdmin = await server.request('GET', '/api/logs?level=error', { headers: admin.headers });
    // Newest first: the request's entry is written when its answer is sent, after the error's.
    const [request, error] = forAdmin.body;
    expect(forAdmin.body).toHaveLength(2);
    expect(request).toMatchObject({
      message: 'GET /api/activity 500',
      source: 'api',
      path: '/api/activity',
      context: { status: 500, requestId: expect.any(String) },
    });
    expect(error).toMatchObject({
      level: 'error',
      source: 'api',
      path: '/api/activity',
      message: expect.stringMatching(/^Unexpected error on GET \/api\/activity: .*activity_logs/),
      context: {
        requestId: request.context.requestId,
        method: 'GET',
        accountId: alice.accountId,
        error: { message: expect.stringContaining('activity_logs'), stack: expect.any(String) },
      },
    });

    const forAlice = await server.request('GET', '/api/logs?level=error', { headers: alice.headers });
    expect(forAlice.body.map((e: { message: string }) => e.message)).toEqual(['GET /api/activity 500']);
  });
});

import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../../db/database.js';
import { readSetting } from '../../../db/instance-settings.store.js';
import { callNode, type ServerProcess, startServerProcess } from '../../../testing/server-process.js';
import { createTestDatabase, openTestDb, testDialects } from '../../../testing/test-server.js';
import { tokenIssuerOf } from './token-issuer.js';

// Who issues an instance's tokens: the URL it first started with, kept in the database, unless SITE_URL says
// otherwise. Nodes on one database without SITE_URL, on different ports or host names, accept each other's tokens.

describe.each(testDialects)('the token issuer (%s)', (dialect) => {
  let opened: Awaited<ReturnType<typeof openTestDb>>;

  beforeAll(async () => {
    opened = await openTestDb(dialect);
    await migrateToLatest(opened.db);
  });
  afterAll(() => opened?.close());

  it('is the URL of the first start, then SITE_URL when one is set, and says when SITE_URL changes it', async () => {
    const db = opened.db.kysely;
    const node = (siteUrl: string, siteUrlConfigured: boolean) => tokenIssuerOf(db, { siteUrl, siteUrlConfigured });
    expect(await node('http://localhost:8787', false)).toEqual({
      issuer: 'http://localhost:8787/auth/v1',
      changed: null,
    });
    expect(await readSetting(db, 'site_url')).toBe('http://localhost:8787');
    // Another node without SITE_URL, elsewhere: the instance's URL, not its own.
    expect(await node('http://localhost:9000', false)).toEqual({
      issuer: 'http://localhost:8787/auth/v1',
      changed: null,
    });
    const moved = await node('https://basalt.example', true);
    expect(moved.issuer).toBe('https://basalt.example/auth/v1');
    expect(moved.changed).toContain(
      'SITE_URL (https://basalt.example) differs from the URL this instance issued its tokens as until now (http://localhost:8787)',
    );
    // Stored as the instance's: nodes started later without SITE_URL agree with it, and nothing is said again.
    expect(await node('http://localhost:9000', false)).toEqual({
      issuer: 'https://basalt.example/auth/v1',
      changed: null,
    });
    expect(await node('https://basalt.example', true)).toEqual({
      issuer: 'https://basalt.example/auth/v1',
      changed: null,
    });
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('two nodes without SITE_URL', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const nodes: ServerProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    // Two processes on one PostgreSQL, on their own ports, with no SITE_URL at all.
    for (let i = 0; i < 2; i++) {
      nodes.push(await startServerProcess({ DATABASE_URL: database.url, SITE_URL: '', AUTH_RATE_LIMIT: '1000' }));
    }
  }, 90_000);

  afterAll(async () => {
    for (const node of nodes) await node.stop();
    await database?.drop();
  });

  it("accept each other's tokens", async () => {
    const [a, b] = nodes.map((node) => node.url);
    if (!a || !b) throw new Error('the nodes did not start');
    const anonKey: string = (await callNode(a, 'GET', '/api/config', {})).body.anonKey;
    const key = { apikey: anonKey, authorization: `Bearer ${anonKey}` };
    for (const [signUpOn, useOn, email] of [
      [a, b, 'on-a@example.com'],
      [b, a, 'on-b@example.com'],
    ] as const) {
      const signUp = await callNode(signUpOn, 'POST', '/auth/v1/signup', key, { email, password: 'Sturdy-Passw0rd!' });
      expect(signUp.status).toBe(200);
      const token: string = signUp.body.access_token;
      expect(decodeJwt(token).iss).toBe(`${a.replace('127.0.0.1', 'localhost')}/auth/v1`);
      const user = await callNode(useOn, 'GET', '/auth/v1/user', { apikey: anonKey, authorization: `Bearer ${token}` });
      expect(user).toMatchObject({ status: 200, body: { email } });
      const tables = await callNode(useOn, 'GET', '/api/tables', { authorization: `Bearer ${token}` });
      expect(tables.status).toBe(200);
    }
  });
});

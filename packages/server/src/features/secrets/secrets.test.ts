import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SQLITE_FILE_NAME } from '../../db/dialect/sqlite.js';
import { generateKey } from '../../lib/crypto/envelope.js';
import { bearer } from '../../testing/account.fixtures.js';
import {
  type ApiScenario,
  type CookieSession,
  collectionRefusals,
  loginWithCookie,
  runScenario,
  type SignedInTestUser,
  signUpUser,
  startAuthServer,
  users,
} from '../../testing/auth.fixtures.js';

import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';
import { listActivity } from '../activity/activity.service.js';
import { secretEnvironmentOf } from './secrets.service.js';

const fieldError = (field: string, message: string) => ({
  code: 'validation_failed',
  message,
  validationErrors: { [field]: [message] },
});
// Values that must never be found at rest, in a list, in a log.
const PLAINTEXT = 'sk_live_PLAINTEXT_must_not_leak_4242';

describe.each(testDialects)('secrets on %s', (dialect) => {
  let server: TestServer;
  let alice: SignedInTestUser;
  let bob: SignedInTestUser;
  let aliceCookie: CookieSession;
  let bobSecretId: number;

  beforeAll(async () => {
    server = await startAuthServer(dialect);
    alice = await signUpUser(server, users.alice);
    bob = await signUpUser(server, users.bob);
    aliceCookie = await loginWithCookie(server, users.alice);
    const made = await server.request('POST', '/api/secrets', {
      headers: bearer(bob.accessToken),
      json: { name: 'BOB_ONLY', value: 'bob-secret-value' },
    });
    bobSecretId = made.body.id;
  });
  afterAll(() => server.close());

  const asAlice = () => bearer(alice.accessToken);
  const create = (json: unknown, headers = asAlice()) => server.request('POST', '/api/secrets', { headers, json });

  it('creates an encrypted secret by default and lists it without its value', async () => {
    const res = await create({ name: 'STRIPE_KEY', value: PLAINTEXT, userId: 'someone-else' });
    expect(res).toMatchObject({
      status: 201,
      body: { id: expect.any(Number), name: 'STRIPE_KEY', isEncrypted: true, createdAt: expect.any(String) },
    });
    expect(res.text).not.toContain(PLAINTEXT);
    const listed = await server.request('GET', '/api/secrets', { headers: asAlice() });
    expect(listed.status).toBe(200);
    expect(listed.body).toContainEqual(res.body);
    expect(listed.text).not.toContain(PLAINTEXT);
    expect(listed.body.map((s: { name: string }) => s.name)).not.toContain('BOB_ONLY');
  });

  it('stores no plaintext at rest: the rows (and the SQLite file) hold only ciphertext', async () => {
    await create({ name: 'AT_REST', value: PLAINTEXT });
    await create({ name: 'SHOWN_PLAIN', value: 'plain-on-purpose', isEncrypted: false });
    const rows = await server.app.basalt.db.kysely.selectFrom('secrets').selectAll().execute();
    const atRest = rows.find((r) => r.name === 'AT_REST');
    expect(atRest?.value).toMatch(/^v1\./);
    expect(JSON.stringify(rows)).not.toContain(PLAINTEXT);
    expect(rows.find((r) => r.name === 'SHOWN_PLAIN')).toMatchObject({ value: 'plain-on-purpose', is_encrypted: 0 });
    const keys = await server.app.basalt.db.kysely.selectFrom('account_data_keys').selectAll().execute();
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(key.wrapped_key).toMatch(/^v1\./);
    if (dialect === 'sqlite') {
      for (const file of fs.readdirSync(server.config.dataDir).filter((f) => f.startsWith(SQLITE_FILE_NAME))) {
        expect(fs.readFileSync(path.join(server.config.dataDir, file)).includes(PLAINTEXT)).toBe(false);
      }
    }
  });

  it('reveals one value on demand (no-store) and records it in activity', async () => {
    const made = await create({ name: 'REVEAL_ME', value: PLAINTEXT });
    const res = await server.request('GET', `/api/secrets/${made.body.id}/value`, { headers: asAlice() });
    expect(res).toMatchObject({ status: 200, body: { value: PLAINTEXT } });
    expect(res.headers.get('cache-control')).toBe('no-store');
    const plain = await create({ name: 'PLAIN_ONE', value: 'visible', isEncrypted: false });
    const shown = await server.request('GET', `/api/secrets/${plain.body.id}/value`, { headers: asAlice() });
    expect(shown.body).toEqual({ value: 'visible' });
    const { data } = await listActivity(server.app.basalt.db.kysely, alice.id, { page: 1, limit: 50 });
    expect(data).toContainEqual(
      expect.objectContaining({ action: 'REVEAL', resource: 'secrets', details: { name: 'REVEAL_ME' } }),
    );
    expect(JSON.stringify(data)).not.toContain(PLAINTEXT);
  });

  it('works with the console cookie session and its CSRF token', async () => {
    const made = await server.request('POST', '/api/secrets', {
      headers: aliceCookie.headers,
      json: { name: 'COOKIE_SECRET', value: 'v' },
    });
    expect(made.status).toBe(201);
    const noCsrf = await server.request('POST', '/api/secrets', {
      headers: { cookie: aliceCookie.cookie },
      json: { name: 'NO_CSRF', value: 'v' },
    });
    expect(noCsrf).toMatchObject({ status: 403, body: { code: 'csrf_invalid' } });
    const removed = await server.request('DELETE', `/api/secrets/${made.body.id}`, { headers: aliceCookie.headers });
    expect(removed).toMatchObject({ status: 200, body: { success: true } });
  });

  it('refuses a second secret of the same name (409), and keeps the first', async () => {
    await create({ name: 'ONCE', value: 'first' });
    const again = await create({ name: 'ONCE', value: 'second' });
    expect(again).toMatchObject({
      status: 409,
      body: { code: 'secret_exists', message: 'A secret named ONCE already exists' },
    });
    expect(again.text).not.toContain('second');
    const environment = await secretEnvironmentOf(server.app.basalt.db, alice.id, server.app.basalt.vault);
    expect(environment.ONCE).toBe('first');
  });

  it('gives each account its own environment, decrypted', async () => {
    const environment = await secretEnvironmentOf(server.app.basalt.db, bob.id, server.app.basalt.vault);
    expect(environment).toEqual({ BOB_ONLY: 'bob-secret-value' });
  });

  it("404s another account's secret: no reveal, no delete, and it stays", async () => {
    for (const [method, url] of [
      ['GET', `/api/secrets/${bobSecretId}/value`],
      ['DELETE', `/api/secrets/${bobSecretId}`],
    ] as const) {
      const res = await server.request(method, url, { headers: asAlice() });
      expect(res).toMatchObject({ status: 404, body: { code: 'secret_not_found' } });
      expect(res.text).not.toContain('bob-secret-value');
    }
    const bobs = await server.request('GET', '/api/secrets', { headers: bearer(bob.accessToken) });
    expect(bobs.body.map((s: { id: number }) => s.id)).toContain(bobSecretId);
  });

  it('refuses API keys (a signed-in user is needed)', async () => {
    const key = await server.request('POST', '/api/keys', { headers: asAlice(), json: { name: 'k' } });
    const res = await server.request('GET', '/api/secrets', { headers: bearer(key.body.key) });
    expect(res).toMatchObject({ status: 403, body: { code: 'api_key_not_allowed' } });
  });

  const scenarios: ApiScenario[] = [
    ...collectionRefusals('/api/secrets', {
      headers: asAlice,
      body: { name: 'A', value: 'b' },
      notFound: { code: 'secret_not_found', message: 'Secret not found' },
    }),
    {
      name: 'no value',
      method: 'POST',
      url: '/api/secrets',
      headers: asAlice,
      json: { name: 'NO_VALUE' },
      status: 400,
      expected: fieldError('value', 'Secret value is required'),
    },
    {
      name: 'an empty value',
      method: 'POST',
      url: '/api/secrets',
      headers: asAlice,
      json: { name: 'EMPTY', value: '' },
      status: 400,
      expected: fieldError('value', 'Secret value is required'),
    },
    {
      name: 'no name',
      method: 'POST',
      url: '/api/secrets',
      headers: asAlice,
      json: { value: 'x' },
      status: 400,
      expected: fieldError('name', 'Secret name is required'),
    },
    {
      name: 'a name that is no environment variable',
      method: 'POST',
      url: '/api/secrets',
      headers: asAlice,
      json: { name: '1-bad name', value: 'x' },
      status: 400,
      expected: { validationErrors: { name: [expect.stringContaining('environment variable')] } },
    },
    {
      name: 'a reserved SUPABASE_ name',
      method: 'POST',
      url: '/api/secrets',
      headers: asAlice,
      json: { name: 'SUPABASE_URL', value: 'x' },
      status: 400,
      expected: { validationErrors: { name: [expect.stringContaining('cannot start with SUPABASE_')] } },
    },
    {
      name: 'a name of 257 characters',
      method: 'POST',
      url: '/api/secrets',
      headers: asAlice,
      json: { name: 'N'.repeat(257), value: 'x' },
      status: 400,
      expected: fieldError('name', 'Secret name must be at most 256 characters'),
    },
    {
      name: 'a value of 24,577 characters',
      method: 'POST',
      url: '/api/secrets',
      headers: asAlice,
      json: { name: 'BIG', value: 'v'.repeat(24_577) },
      status: 400,
      expected: fieldError('value', 'Secret value must be at most 24576 characters'),
    },
    {
      name: 'a NUL in the value',
      method: 'POST',
      url: '/api/secrets',
      headers: asAlice,
      json: { name: 'NUL', value: 'a\u0000b' },
      status: 400,
      expected: fieldError('value', 'value must not contain the NUL character (\\u0000)'),
    },
    {
      name: 'a number as value',
      method: 'POST',
      url: '/api/secrets',
      headers: asAlice,
      json: { name: 'NUM', value: 42 },
      status: 400,
      expected: fieldError('value', 'Secret value must be text'),
    },
    {
      name: 'isEncrypted as text',
      method: 'POST',
      url: '/api/secrets',
      headers: asAlice,
      json: { name: 'ENC', value: 'x', isEncrypted: 'yes' },
      status: 400,
      expected: fieldError('isEncrypted', 'isEncrypted must be true or false'),
    },
    {
      name: 'reveal an unknown id',
      method: 'GET',
      url: '/api/secrets/999999/value',
      headers: asAlice,
      status: 404,
      expected: { code: 'secret_not_found', message: 'Secret not found' },
    },
    { name: 'reveal a non-numeric id', method: 'GET', url: '/api/secrets/abc/value', headers: asAlice, status: 404 },
    { name: 'reveal without credentials', method: 'GET', url: '/api/secrets/1/value', status: 401 },
  ];
  it.each(scenarios)('$name → $status', (scenario) => runScenario(server, scenario).then(() => undefined));

  it('changed nothing on refused input', async () => {
    const names = (await server.request('GET', '/api/secrets', { headers: asAlice() })).body.map(
      (s: { name: string }) => s.name,
    );
    for (const refused of ['NO_VALUE', 'EMPTY', 'SUPABASE_URL', 'BIG', 'NUL', 'NUM', 'ENC']) {
      expect(names).not.toContain(refused);
    }
  });

  it('deletes a secret (activity records it) and its value is gone', async () => {
    const made = await create({ name: 'DOOMED', value: PLAINTEXT });
    const res = await server.request('DELETE', `/api/secrets/${made.body.id}`, { headers: asAlice() });
    expect(res).toMatchObject({ status: 200, body: { success: true, message: 'Secret deleted successfully' } });
    expect((await server.request('GET', `/api/secrets/${made.body.id}/value`, { headers: asAlice() })).status).toBe(
      404,
    );
    const { data } = await listActivity(server.app.basalt.db.kysely, alice.id, { page: 1, limit: 50 });
    expect(data).toContainEqual(
      expect.objectContaining({ action: 'DELETE', resource: 'secrets', details: { name: 'DOOMED' } }),
    );
  });

  it('never writes a value into the system log', async () => {
    await server.app.basalt.logs.flush();
    const logs = await server.app.basalt.db.kysely.selectFrom('system_logs').selectAll().execute();
    expect(JSON.stringify(logs)).not.toContain(PLAINTEXT);
  });
});

describe('secrets across a master key rotation', () => {
  it('re-wraps data keys at start, and refuses to open them under an unknown key with a clear message', async () => {
    const oldKey = generateKey().toString('base64');
    const newKey = generateKey().toString('base64');
    const first = await startTestServer('sqlite', { masterKey: oldKey });
    const alice = await signUpUser(first, users.alice);
    const made = await first.request('POST', '/api/secrets', {
      headers: bearer(alice.accessToken),
      json: { name: 'ROTATED', value: PLAINTEXT },
    });
    await first.app.close();
    const { buildApp } = await import('../../app.js');
    // The same data dir and database, started with the new key and the old one as previous.
    const rotated = await buildApp({ ...first.config, masterKey: newKey, previousMasterKey: oldKey });
    const keys = await rotated.basalt.db.kysely.selectFrom('account_data_keys').selectAll().execute();
    expect(keys.every((k) => k.master_key_id === rotated.basalt.vault.keyring.current.id)).toBe(true);
    await rotated.close();
    const after = await buildApp({ ...first.config, masterKey: newKey, previousMasterKey: null });
    const environment = await secretEnvironmentOf(after.basalt.db, alice.id, after.basalt.vault);
    expect(environment.ROTATED).toBe(PLAINTEXT);
    expect(made.status).toBe(201);
    await after.close();
    const wrong = await buildApp({ ...first.config, masterKey: generateKey().toString('base64') });
    await expect(secretEnvironmentOf(wrong.basalt.db, alice.id, wrong.basalt.vault)).rejects.toThrow(
      /another master key/,
    );
    await wrong.close();
    await fs.promises.rm(first.config.dataDir, { recursive: true, force: true });
  });
});

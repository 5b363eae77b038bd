import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { importJWK, type JWK, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Db, migrateToLatest, openDatabase } from '../../../db/database.js';
import { createTestDatabase, testDialects } from '../../../testing/test-server.js';
import { listSigningKeys } from './signing-keys.store.js';
import { createTokenService, TokenError, type TokenService } from './tokens.service.js';

const ISSUER = 'http://localhost/auth/v1';

describe.each(testDialects)('the token service on %s', (dialect) => {
  let dataDir: string;
  let database: Awaited<ReturnType<typeof createTestDatabase>> | null = null;
  let db: Db;
  let tokens: TokenService;
  const user = {
    userId: '8a4c1f6e-3b2d-4c1e-9f1a-2b3c4d5e6f70',
    sessionId: '1b2c3d4e-0000-4000-8000-000000000001',
    email: 'ada@example.com',
    appMetadata: {},
    userMetadata: {},
    amr: [{ method: 'password', timestamp: 1 }],
  };
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-tokens-'));
    database = dialect === 'postgres' ? await createTestDatabase() : null;
    db = openDatabase({ databaseUrl: database?.url ?? null, dataDir });
    await migrateToLatest(db);
    tokens = await createTokenService(db.kysely, { issuer: ISSUER });
  });
  afterAll(async () => {
    await db.close();
    await database?.drop();
    await fs.rm(dataDir, { recursive: true, force: true });
  });
  afterEach(() => vi.useRealTimers());

  // A token signed with the instance's own key, with exactly the claims given (no exp unless given).
  async function signedWithOwnKey(claims: Record<string, unknown>): Promise<string> {
    const [key] = await listSigningKeys(db.kysely);
    if (!key) throw new Error('no signing key');
    const privateKey = await importJWK(JSON.parse(key.private_jwk) as JWK, key.alg);
    return new SignJWT(claims).setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' }).sign(privateKey);
  }
  const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;
  const userClaims = () => ({
    aud: 'authenticated',
    role: 'authenticated',
    sub: user.userId,
    session_id: user.sessionId,
    iat: Math.floor(Date.now() / 1000),
  });

  it('verifies its own access tokens, and again from memory', async () => {
    const { token } = await tokens.signAccessToken(user);
    const first = await tokens.verify(token);
    const second = await tokens.verify(token);
    expect(first).toMatchObject({ role: 'authenticated', sub: user.userId, sessionId: user.sessionId });
    expect(first.claims.iss).toBe(ISSUER);
    expect(second).toBe(first);
  });

  it('refuses a remembered token once it has expired', async () => {
    const { token, expiresAt } = await tokens.signAccessToken(user);
    await tokens.verify(token);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime((expiresAt + 1) * 1000);
    await expect(tokens.verify(token)).rejects.toMatchObject({ reason: 'expired', message: 'JWT expired' });
  });

  it('refuses a tampered token even after the original was verified', async () => {
    const { token } = await tokens.signAccessToken(user);
    await tokens.verify(token);
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString());
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url')}.${signature}`;
    await expect(tokens.verify(forged)).rejects.toBeInstanceOf(TokenError);
  });

  it.each([
    ['a user token without exp', () => ({ ...userClaims(), iss: ISSUER })],
    ['a user token without iss', () => ({ ...userClaims(), exp: inAnHour() })],
    [
      'a user token of another issuer',
      () => ({ ...userClaims(), iss: 'https://elsewhere.example/auth/v1', exp: inAnHour() }),
    ],
    ['a user token with the keys’ issuer', () => ({ ...userClaims(), iss: 'basalt', exp: inAnHour() })],
    ['an anon token without exp', () => ({ role: 'anon', iss: 'basalt' })],
    ['a service token without iss', () => ({ role: 'service_role', exp: inAnHour() })],
    ['a service token of another issuer', () => ({ role: 'service_role', iss: 'someone-else', exp: inAnHour() })],
  ])('refuses %s, though it carries the instance’s own signature', async (_name, claims) => {
    const token = await signedWithOwnKey(claims());
    await expect(tokens.verify(token)).rejects.toMatchObject({ reason: 'invalid' });
  });

  it('accepts its own keys and a token like its own, signed apart', async () => {
    expect(await tokens.verify(tokens.anonKey)).toMatchObject({ role: 'anon' });
    expect(await tokens.verify(tokens.serviceKey)).toMatchObject({ role: 'service_role' });
    const token = await signedWithOwnKey({ ...userClaims(), iss: ISSUER, exp: inAnHour() });
    expect(await tokens.verify(token)).toMatchObject({ role: 'authenticated', sub: user.userId });
  });

  it('keeps the anon and service keys across restarts', async () => {
    const again = await createTokenService(db.kysely, { issuer: ISSUER });
    expect(again.anonKey).toBe(tokens.anonKey);
    expect(again.serviceKey).toBe(tokens.serviceKey);
    expect(again.roleOfKey(tokens.anonKey)).toBe('anon');
    expect(again.roleOfKey('something else')).toBeNull();
  });
});

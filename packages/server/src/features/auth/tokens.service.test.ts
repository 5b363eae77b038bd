import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Db, migrateToLatest, openDatabase } from '../../db/database.js';
import { createTokenService, TokenError, type TokenService } from './tokens.service.js';

describe('the token service', () => {
  let dataDir: string;
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
    db = openDatabase({ databaseUrl: null, dataDir });
    await migrateToLatest(db);
    tokens = await createTokenService(db.kysely, { issuer: 'http://localhost/auth/v1' });
  });
  afterAll(async () => {
    await db.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });
  afterEach(() => vi.useRealTimers());

  it('verifies its own access tokens, and again from memory', async () => {
    const { token } = await tokens.signAccessToken(user);
    const first = await tokens.verify(token);
    const second = await tokens.verify(token);
    expect(first).toMatchObject({ role: 'authenticated', sub: user.userId, sessionId: user.sessionId });
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

  it('keeps the anon and service keys across restarts', async () => {
    const again = await createTokenService(db.kysely, { issuer: 'http://localhost/auth/v1' });
    expect(again.anonKey).toBe(tokens.anonKey);
    expect(again.serviceKey).toBe(tokens.serviceKey);
    expect(again.roleOfKey(tokens.anonKey)).toBe('anon');
    expect(again.roleOfKey('something else')).toBeNull();
  });
});

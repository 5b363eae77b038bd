import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../../testing/test-server.js';
import { type AccountRow, createAccount, updateAccount } from '../users/accounts.service.js';
import { consoleUserPool } from '../users/console-pool.js';
import { createSessionService, REFRESH_REUSE_WINDOW_SECONDS, type SessionService } from './sessions.service.js';

// The session service with an injected clock: rotation, the reuse window and logout scopes.
describe.each(testDialects)('createSessionService on %s', (dialect) => {
  let server: TestServer;
  let sessions: SessionService;
  let account: AccountRow;
  const clock = { ms: Date.UTC(2030, 5, 1, 12) };
  beforeAll(async () => {
    server = await startServer(dialect);
    const { db, tokens } = server.app.basalt;
    const pool = consoleUserPool({
      autoconfirm: true,
      signupsAllowed: true,
      accessTokenTtl: 3600,
      siteUrl: server.url,
      redirectAllowed: () => false,
      anonymousSignIns: false,
      mfaEnabled: true,
      passwordReauthentication: false,
      passwordPolicy: null,
      providers: [],
    });
    sessions = createSessionService({ db, pool, tokens, refreshSecret: 'test-secret', now: () => new Date(clock.ms) });
    account = await createAccount(db.kysely, { email: 'ada@example.com', passwordHash: null, confirmed: true });
  });
  afterAll(() => server.close());
  const start = async () => {
    const started = await sessions.start(server.app.basalt.db.kysely, account, { method: 'password' });
    return sessions.issue(account, started);
  };
  const errorCode = (promise: Promise<unknown>) =>
    promise.then(
      () => 'ok',
      (e: { code?: string }) => e.code,
    );

  it('starts a session: a signed access token naming it and an opaque refresh token', async () => {
    const issued = await start();
    expect(decodeJwt(issued.accessToken)).toMatchObject({
      sub: account.id,
      session_id: issued.sessionId,
      amr: [{ method: 'password' }],
    });
    expect(issued.refreshToken).toMatch(/^[\w-]{32}$/);
    expect(account.last_sign_in_at).toBe(new Date(clock.ms).toISOString());
    expect(await sessions.exists(issued.sessionId)).toBe(true);
  });

  it('rotates, returns the same successor inside the reuse window, and revokes the session after it', async () => {
    const issued = await start();
    const first = await sessions.refresh(issued.refreshToken);
    expect(first.session.sessionId).toBe(issued.sessionId);
    clock.ms += (REFRESH_REUSE_WINDOW_SECONDS - 1) * 1000;
    const again = await sessions.refresh(issued.refreshToken);
    expect(again.session.refreshToken).toBe(first.session.refreshToken);

    // A second rotation inside the window: the parent now leads to the newest token.
    const second = await sessions.refresh(first.session.refreshToken);
    expect((await sessions.refresh(issued.refreshToken)).session.refreshToken).toBe(second.session.refreshToken);

    clock.ms += (REFRESH_REUSE_WINDOW_SECONDS + 1) * 1000;
    expect(await errorCode(sessions.refresh(issued.refreshToken))).toBe('refresh_token_already_used');
    expect(await sessions.exists(issued.sessionId)).toBe(false);
    expect(await errorCode(sessions.refresh(second.session.refreshToken))).toBe('refresh_token_not_found');
  });

  it('refuses unknown and malformed tokens', async () => {
    expect(await errorCode(sessions.refresh('x'.repeat(32)))).toBe('refresh_token_not_found');
    expect(await errorCode(sessions.refresh('short'))).toBe('refresh_token_not_found');
    expect(await errorCode(sessions.refresh(`${'x'.repeat(20)} DROP TABLE`))).toBe('refresh_token_not_found');
  });

  it('refuses to refresh for a banned account', async () => {
    const issued = await start();
    await updateAccount(server.app.basalt.db.kysely, account.id, {
      banned_until: new Date(clock.ms + 60_000).toISOString(),
    });
    expect(await errorCode(sessions.refresh(issued.refreshToken))).toBe('user_banned');
    await updateAccount(server.app.basalt.db.kysely, account.id, { banned_until: null });
  });

  it.each([
    ['local', 1, [false, true, true]],
    ['others', 2, [true, false, false]],
    ['global', 3, [false, false, false]],
  ] as const)('ends the sessions of scope %s', async (scope, count, alive) => {
    await sessions.endAll(server.app.basalt.db, account.id);
    const [a, b, c] = [await start(), await start(), await start()];
    expect(await sessions.end(account.id, a.sessionId, scope)).toBe(count);
    expect(await Promise.all([a, b, c].map((s) => sessions.exists(s.sessionId)))).toEqual(alive);
  });
});

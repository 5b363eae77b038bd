import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../db/database.js';
import { signUpUser, users } from '../../../testing/auth.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../../testing/test-server.js';
import { createSecondFactor } from '../users/second-factor.js';
import { CONSOLE_TABLES } from '../users/user-pool.js';
import { createSessionLiveness } from './session-liveness.js';

// A process remembers which sessions are live (features/auth/sessions/session-liveness.ts) and which accounts sign in with
// a second factor (second-factor.ts). These tests drive its clock
// over a real database: a session in use must never lapse into a read that every request waits for, and a session
// that ended without a bus event (a lost one) must still be refused within the backstop's time.

const MINUTE = 60_000;

function sessionOf(accessToken: string): { sessionId: string; accountId: string } {
  const claims = JSON.parse(Buffer.from(accessToken.split('.')[1] as string, 'base64url').toString('utf8'));
  return { sessionId: claims.session_id, accountId: claims.sub };
}

describe.each(testDialects)('session liveness on %s', (dialect) => {
  let server: TestServer;
  let db: Db;

  beforeAll(async () => {
    server = await startTestServer(dialect, { authRateLimit: 1000 });
    db = server.app.basalt.db;
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  it('reads a session once for every request that asks while the read is under way', async () => {
    const { sessionId, accountId } = sessionOf((await signUpUser(server, users.alice)).accessToken);
    const liveness = createSessionLiveness(db, CONSOLE_TABLES);
    const first = liveness.isLive(sessionId, accountId);
    const second = liveness.isLive(sessionId, accountId);
    expect(first).toBeInstanceOf(Promise);
    expect(second).toBe(first);
    expect(await first).toBe(true);
    expect(liveness.isLive(sessionId, accountId)).toBe(true);
  });

  it('keeps answering a session in use at once across its entry’s end, reading it again in the background', async () => {
    const { sessionId, accountId } = sessionOf((await signUpUser(server, users.bob)).accessToken);
    let clock = 1_000_000;
    const liveness = createSessionLiveness(db, CONSOLE_TABLES, () => clock);
    expect(await liveness.isLive(sessionId, accountId)).toBe(true);
    let readAt = clock;
    for (let minute = 1; minute <= 3; minute++) {
      // Just before the entry ends: answered at once, and read again behind the answer.
      clock = readAt + MINUTE - 5_000;
      expect(liveness.isLive(sessionId, accountId)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 50));
      readAt = clock;
      // Past the old entry's end: the background read made a new one.
      clock = readAt + 10_000;
      expect({ minute, answer: liveness.isLive(sessionId, accountId) }).toEqual({ minute, answer: true });
    }
  });

  it('refuses a session that ended without a bus event once its entry is read again', async () => {
    const { sessionId, accountId } = sessionOf((await signUpUser(server, users.carol)).accessToken);
    let clock = 1_000_000;
    const liveness = createSessionLiveness(db, CONSOLE_TABLES, () => clock);
    expect(await liveness.isLive(sessionId, accountId)).toBe(true);
    // Ended behind the process's back: nothing on the bus tells it.
    await db.kysely.deleteFrom('auth_sessions').where('id', '=', sessionId).execute();
    clock += 30_000;
    expect(liveness.isLive(sessionId, accountId)).toBe(true);
    clock += 25_000;
    // In the entry's last seconds the answer is still the remembered one, and the session is read again.
    expect(liveness.isLive(sessionId, accountId)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(liveness.isLive(sessionId, accountId)).toBe(false);
  });

  it('keeps answering whether an account in use needs a second factor, reading it again in the background', async () => {
    const { accountId } = sessionOf((await signUpUser(server, users.erin)).accessToken);
    let clock = 1_000_000;
    const secondFactor = createSecondFactor(db, () => clock);
    const first = secondFactor.needed(accountId);
    expect(first).toBeInstanceOf(Promise);
    expect(secondFactor.needed(accountId)).toBe(first);
    expect(await first).toBe(false);
    let readAt = clock;
    for (let minute = 1; minute <= 3; minute++) {
      clock = readAt + MINUTE - 5_000;
      expect(secondFactor.needed(accountId)).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 50));
      readAt = clock;
      clock = readAt + 10_000;
      expect({ minute, answer: secondFactor.needed(accountId) }).toEqual({ minute, answer: false });
    }
  });

  it('does not lend one account’s answer to a token naming the same session for another account', async () => {
    const { sessionId, accountId } = sessionOf((await signUpUser(server, users.dave)).accessToken);
    const liveness = createSessionLiveness(db, CONSOLE_TABLES);
    expect(await liveness.isLive(sessionId, accountId)).toBe(true);
    expect(await liveness.isLive(sessionId, '00000000-0000-4000-8000-000000000000')).toBe(false);
  });
});

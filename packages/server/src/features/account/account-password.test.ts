import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type AccountHolder,
  bearer,
  fieldError,
  signUpAccountHolder,
  userRouteScenarios,
} from '../../testing/account.fixtures.js';
import {
  type ApiScenario,
  keyHeaders,
  loginWithCookie,
  runScenario,
  type SignedInTestUser,
  signInUser,
  signUpUser,
  startAuthServer,
  type TestUser,
  users,
} from '../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// POST /api/user/change-password: the form's rules and messages, the sign-up password policy, a wrong current
// password, the other sessions ending while the caller's stays, and the attempt limit.

const URL = '/api/user/change-password';
const NEW_PASSWORD = 'New-Passw0rd!';

describe.each(testDialects)('changing the password on %s', (dialect) => {
  let server: TestServer;
  let alice: AccountHolder;

  beforeAll(async () => {
    server = await startAuthServer(dialect);
    alice = await signUpAccountHolder(server, users.alice);
    await signUpUser(server, users.bob);
  });
  afterAll(() => server.close());

  const change = (user: TestUser, password: string, headers: Record<string, string>) =>
    server.request('POST', URL, { headers, json: { currentPassword: user.password, newPassword: password } });
  const signInStatus = async (email: string, password: string) =>
    (await server.request('POST', '/api/auth/login', { json: { email, password } })).status;
  const meStatus = async (headers: Record<string, string>) =>
    (await server.request('GET', '/api/auth/me', { headers })).status;
  const refreshStatus = async (refreshToken: string) =>
    (
      await server.request('POST', '/auth/v1/token?grant_type=refresh_token', {
        headers: keyHeaders(server.anonKey),
        json: { refresh_token: refreshToken },
      })
    ).status;

  const valid = { currentPassword: users.alice.password, newPassword: NEW_PASSWORD };
  const { credentialRefusals, asHolder: asAlice, malformedJson } = userRouteScenarios('POST', URL, () => alice);
  const refusals: ApiScenario[] = [
    ...credentialRefusals(valid),
    asAlice(
      'no current password',
      { newPassword: NEW_PASSWORD },
      400,
      fieldError('currentPassword', 'Current password is required'),
    ),
    asAlice(
      'an empty current password',
      { currentPassword: '', newPassword: NEW_PASSWORD },
      400,
      fieldError('currentPassword', 'Current password is required'),
    ),
    asAlice(
      'no new password',
      { currentPassword: users.alice.password },
      400,
      fieldError('newPassword', 'Password is required'),
    ),
    asAlice('a short new password', { currentPassword: users.alice.password, newPassword: 'Ab1!' }, 400, {
      code: 'validation_failed',
      message: 'Password must be at least 8 characters',
    }),
    ...[
      ['no uppercase letter', 'new-passw0rd!', 'Password must contain at least one uppercase letter'],
      ['no lowercase letter', 'NEW-PASSW0RD!', 'Password must contain at least one lowercase letter'],
      ['no number', 'New-Password!', 'Password must contain at least one number'],
      ['no special character', 'NewPassw0rd', 'Password must contain at least one special character'],
      ['a password over 100 characters', `Aa1!${'x'.repeat(100)}`, 'Password is too long'],
    ].map(([what, password, message]) =>
      asAlice(
        `a new password with ${what}`,
        { currentPassword: users.alice.password, newPassword: password },
        400,
        fieldError('newPassword', message as string),
      ),
    ),
    asAlice(
      'a wrong current password',
      { currentPassword: 'Wrong-Passw0rd!', newPassword: NEW_PASSWORD },
      400,
      fieldError('currentPassword', 'Current password is incorrect', 'invalid_current_password'),
    ),
    asAlice("another account's password", { currentPassword: users.bob.password, newPassword: NEW_PASSWORD }, 400, {
      code: 'invalid_current_password',
    }),
    asAlice(
      'the same password again',
      { currentPassword: users.alice.password, newPassword: users.alice.password },
      400,
      fieldError('newPassword', 'The new password must be different from the current password', 'same_password'),
    ),
    malformedJson('{'),
  ];
  it.each(refusals)('$name → $status, and the password stays', async (scenario) => {
    await runScenario(server, scenario);
    expect(await signInStatus(users.alice.email, users.alice.password)).toBe(200);
  });

  it("ends the account's other sessions and keeps the caller's", async () => {
    const caller = await signInUser(server, users.alice);
    const other = await signInUser(server, users.alice);
    const cookie = await loginWithCookie(server, users.alice);
    const bob = await signInUser(server, users.bob);
    const sessionsBefore = await server.app.basalt.db.kysely
      .selectFrom('auth_sessions')
      .select('id')
      .where('account_id', '=', alice.id)
      .execute();

    const res = await change(users.alice, NEW_PASSWORD, bearer(caller.accessToken));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: 'Password updated successfully',
      otherSessionsEnded: sessionsBefore.length - 1,
    });

    // The caller goes on, and can still refresh.
    expect(await meStatus(bearer(caller.accessToken))).toBe(200);
    expect(await refreshStatus(caller.refreshToken)).toBe(200);
    // Every other session of the account ended: its access token, its refresh token, the console cookie.
    expect(await meStatus(bearer(other.accessToken))).toBe(401);
    expect(await refreshStatus(other.refreshToken)).toBe(400);
    expect(await meStatus({ cookie: cookie.cookie })).toBe(401);
    // Another account is untouched.
    expect(await meStatus(bearer(bob.accessToken))).toBe(200);
    expect(await refreshStatus(bob.refreshToken)).toBe(200);

    expect(await signInStatus(users.alice.email, users.alice.password)).toBe(401);
    expect(await signInStatus(users.alice.email, NEW_PASSWORD)).toBe(200);
    const activity = await server.request('GET', '/api/activity', { headers: bearer(caller.accessToken) });
    expect(activity.body.data.map((e: { resource: string }) => e.resource)).toContain('password');
  });

  it('changes it from a cookie session with the CSRF token, which stays signed in', async () => {
    const cookie = await loginWithCookie(server, { ...users.alice, password: NEW_PASSWORD });
    const bearerSession = await signInUser(server, { ...users.alice, password: NEW_PASSWORD });
    const res = await change({ ...users.alice, password: NEW_PASSWORD }, users.alice.password, cookie.headers);
    expect(res.status).toBe(200);
    expect(await meStatus({ cookie: cookie.cookie })).toBe(200);
    expect(await meStatus(bearer(bearerSession.accessToken))).toBe(401);
    expect(await signInStatus(users.alice.email, users.alice.password)).toBe(200);
  });
});

describe.each(testDialects)('password change attempts on %s', (dialect) => {
  let server: TestServer;
  let dave: SignedInTestUser;
  beforeAll(async () => {
    // Windows are fixed 5-minute slots: freeze the clock just after one starts so none rolls over mid-test.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Math.ceil(Date.now() / 300_000) * 300_000 + 1000);
    server = await startAuthServer(dialect, { authRateLimit: 3 });
    dave = await signUpUser(server, users.dave);
  });
  afterAll(async () => {
    vi.useRealTimers();
    await server.close();
  });

  it('are limited like sign-ins: the fourth in five minutes is 429 with Retry-After, even with the right password', async () => {
    const attempt = (currentPassword: string) =>
      server.request('POST', URL, {
        headers: bearer(dave.accessToken),
        json: { currentPassword, newPassword: NEW_PASSWORD },
      });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await attempt('Wrong-Passw0rd!')).status);
    expect(statuses).toEqual([400, 400, 400]);
    const limited = await attempt(users.dave.password);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({
      code: 'over_request_rate_limit',
      message: expect.stringMatching(/^Too many password attempts\. Please try again in \d+ seconds\.$/),
    });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Input errors are answered before anything is counted or checked.
    expect((await attempt('')).status).toBe(400);
    // Sign-ins have their own counter.
    const signIn = await server.request('POST', '/api/auth/login', {
      json: { email: users.dave.email, password: users.dave.password },
    });
    expect(signIn.status).toBe(200);
  });
});

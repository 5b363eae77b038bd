import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyHeaders, type SignedInTestUser, signUpUser, users } from '../../../testing/auth.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../../testing/test-server.js';
import { listAccountsFromCli, resetPasswordFromCli, signupsFromCli } from './accounts-cli.js';

// The operator's account commands against a running server's database: the server sees their effect at once
// (ended sessions refused, sign-ups closed) without a restart.

describe.each(testDialects)('basalt accounts, reset-password and signups on %s', (dialect) => {
  let server: TestServer;
  let alice: SignedInTestUser;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    alice = await signUpUser(server, users.alice);
    await signUpUser(server, users.bob);
  });
  afterAll(() => server.close());

  const output = () => {
    const lines: string[] = [];
    const errors: string[] = [];
    return { lines, errors, out: { log: (l: string) => lines.push(l), error: (l: string) => errors.push(l) } };
  };

  it('lists every console account, the administrator marked', async () => {
    const { lines, out } = output();
    expect(await listAccountsFromCli(server.app.basalt.db, out)).toBe(0);
    expect(lines.at(-1)).toBe('2 accounts.');
    expect(lines.find((l) => l.startsWith('alice@example.com'))).toMatch(/\talice\t.*\tadmin$/);
    expect(lines.find((l) => l.startsWith('bob@example.com'))).not.toMatch(/admin/);
  });

  it('resets a forgotten password: the old one and every session stop working', async () => {
    const { lines, out } = output();
    const code = await resetPasswordFromCli(
      server.app.basalt.db,
      { email: 'ALICE@example.com', password: 'Fresh-Start-2026!' },
      out,
    );
    expect(code).toBe(0);
    expect(lines[0]).toMatch(/^Set a new password for alice@example.com; \d+ sessions? ended\.$/);
    expect((await server.request('GET', '/api/auth/me', { headers: alice.headers })).status).toBe(401);
    const old = await server.request('POST', '/auth/v1/token?grant_type=password', {
      headers: keyHeaders(server.anonKey),
      json: { email: users.alice.email, password: users.alice.password },
    });
    expect(old.status).toBe(400);
    const fresh = await server.request('POST', '/auth/v1/token?grant_type=password', {
      headers: keyHeaders(server.anonKey),
      json: { email: users.alice.email, password: 'Fresh-Start-2026!' },
    });
    expect(fresh.status).toBe(200);
  });

  it.each([
    [{}, '--email'],
    [{ email: 'nope', password: 'Fresh-Start-2026!' }, '--email'],
    [{ email: users.bob.email }, '--password'],
    [{ email: users.bob.email, password: 'weak' }, 'Password must be at least 8 characters'],
    [{ email: 'nobody@example.com', password: 'Fresh-Start-2026!' }, 'no account has the email'],
  ])('refuses reset-password %j with exit code 1 and changes nothing', async (values, message) => {
    const { errors, out } = output();
    expect(await resetPasswordFromCli(server.app.basalt.db, values, out)).toBe(1);
    expect(errors.join('\n')).toContain(message);
    const bob = await server.request('POST', '/auth/v1/token?grant_type=password', {
      headers: keyHeaders(server.anonKey),
      json: { email: users.bob.email, password: users.bob.password },
    });
    expect(bob.status).toBe(200);
  });

  it('closes and opens console sign-ups for the running server', async () => {
    const { lines, errors, out } = output();
    expect(await signupsFromCli(server.app.basalt.db, 'sideways', out)).toBe(1);
    expect(errors[0]).toContain('"open" or "close"');
    expect(await signupsFromCli(server.app.basalt.db, 'close', out)).toBe(0);
    expect(lines.at(-1)).toBe('Console sign-ups are closed.');
    expect((await server.request('GET', '/api/config')).body.signupsAllowed).toBe(false);
    const refused = await server.request('POST', '/auth/v1/signup', {
      headers: keyHeaders(server.anonKey),
      json: { email: users.carol.email, password: users.carol.password },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error_code).toBe('signup_disabled');
    expect(await signupsFromCli(server.app.basalt.db, 'open', out)).toBe(0);
    expect((await server.request('GET', '/api/config')).body.signupsAllowed).toBe(true);
  });
});

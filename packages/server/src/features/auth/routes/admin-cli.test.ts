import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyHeaders, startServer, users } from '../../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../../testing/test-server.js';
import { findAccountWithEmail } from '../users/accounts.service.js';
import { createAdminFromCli } from './admin-cli.js';

describe.each(testDialects)('basalt create-admin on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(dialect);
  });
  afterAll(() => server.close());
  const run = async (values: { email?: string; password?: string; username?: string }) => {
    const lines: string[] = [];
    const errors: string[] = [];
    const code = await createAdminFromCli(server.app.basalt.db, server.config, values, {
      log: (line) => lines.push(line),
      error: (line) => errors.push(line),
    });
    return { code, lines, errors };
  };

  it.each([
    [{}, '--email is required'],
    [{ email: 'nope', password: users.alice.password }, '--email: Please enter a valid email'],
    [{ email: users.alice.email }, '--password is required'],
    [{ email: users.alice.email, password: 'weak' }, '--password: Password must be at least 8 characters'],
    [
      { email: users.alice.email, password: users.alice.password, username: 'a b' },
      '--username: Username can only contain',
    ],
  ])('refuses %j with a clear message and exit code 1', async (values, message) => {
    const result = await run(values);
    expect(result.code).toBe(1);
    expect(result.errors.join('\n')).toContain(message);
  });

  it('creates a confirmed administrator who can sign in', async () => {
    const result = await run({ email: 'Alice@Example.com', password: users.alice.password, username: 'alice' });
    expect(result).toMatchObject({ code: 0, lines: ['Created administrator alice@example.com (username alice).'] });
    const account = await findAccountWithEmail(server.app.basalt.db.kysely, users.alice.email);
    expect(account).toMatchObject({ is_admin: 1, username: 'alice', email_confirmed_at: expect.any(String) });
    const signIn = await server.request('POST', '/auth/v1/token?grant_type=password', {
      headers: keyHeaders(server.anonKey),
      json: { email: users.alice.email, password: users.alice.password },
    });
    expect(signIn.status).toBe(200);
  });

  it('promotes an existing account and changes nothing else', async () => {
    await server.request('POST', '/auth/v1/signup', {
      headers: keyHeaders(server.anonKey),
      json: { email: users.bob.email, password: users.bob.password },
    });
    const before = await findAccountWithEmail(server.app.basalt.db.kysely, users.bob.email);
    expect(before?.is_admin).toBe(0);
    const result = await run({ email: users.bob.email, password: 'Ignored-Passw0rd!' });
    expect(result.code).toBe(0);
    expect(result.lines[0]).toContain('Promoted bob@example.com');
    const after = await findAccountWithEmail(server.app.basalt.db.kysely, users.bob.email);
    expect(after).toMatchObject({ is_admin: 1, password_hash: before?.password_hash });
    expect((await run({ email: users.bob.email })).lines).toEqual(['bob@example.com is already an administrator.']);
  });

  it('refuses a username another account holds', async () => {
    const result = await run({ email: users.carol.email, password: users.carol.password, username: 'ALICE' });
    expect(result).toMatchObject({
      code: 1,
      errors: ['create-admin: that username is already taken by another account'],
    });
  });
});

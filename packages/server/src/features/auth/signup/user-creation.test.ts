import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appKeyHeaders, type Developer, startDeveloper } from '../../../testing/apps.fixtures.js';
import { signUpUser, startAuthServer, users } from '../../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../../testing/test-server.js';
import { createAdminFromCli } from '../routes/admin-cli.js';

// Every path that makes a user goes through registerUser (user-creation.service.ts): a console account made by
// `basalt create-admin` and an end user added on the Users page are the same rows as ones that signed up, but for
// what names them (ids, addresses, times) and, for the administrator, is_admin.

type Row = Record<string, unknown>;

// A row with what differs from one user to the next replaced by whether it is set.
function shapeOf(row: Row | undefined, names: { id: string; email: string; username: string }): Row {
  if (!row) throw new Error('no row');
  const shape: Row = {};
  for (const [column, value] of Object.entries(row)) {
    if (column === 'id' || column === 'account_id' || column === 'provider_id') shape[column] = value === names.id;
    else if (column === 'email' || column === 'username' || column === 'username_key') shape[column] = value !== null;
    else if (/_at$|_hash$/.test(column)) shape[column] = value === null ? null : 'set';
    else if (column === 'user_metadata' || column === 'identity_data') {
      const metadata = JSON.parse(String(value)) as Row;
      shape[column] = {
        ...metadata,
        ...(metadata.sub === undefined ? {} : { sub: metadata.sub === names.id }),
        ...(metadata.email === undefined ? {} : { email: metadata.email === names.email }),
        ...(metadata.username === undefined ? {} : { username: metadata.username === names.username }),
      };
    } else shape[column] = value;
  }
  return shape;
}

describe.each(testDialects)('users made outside sign-up, on %s', (dialect) => {
  let server: TestServer;
  let developer: Developer;
  beforeAll(async () => {
    server = await startAuthServer(dialect);
    developer = await startDeveloper(server, users.alice);
  }, 60_000);
  afterAll(() => server?.close());

  const db = () => server.app.basalt.db.kysely;

  it('makes a create-admin account with the rows and defaults of a signed-up one', async () => {
    const signedUp = await signUpUser(server, users.bob);
    const code = await createAdminFromCli(
      server.app.basalt.db,
      server.config,
      { email: users.carol.email, password: users.carol.password, username: users.carol.username },
      { log: () => {}, error: () => {} },
    );
    expect(code).toBe(0);
    const accountOf = (email: string) =>
      db().selectFrom('accounts').selectAll().where('email', '=', email).executeTakeFirst();
    const [bob, carol] = [await accountOf(users.bob.email), await accountOf(users.carol.email)];
    expect(bob?.id).toBe(signedUp.id);
    const names = (row: Row | undefined, user: (typeof users)['bob']) => ({
      id: String(row?.id),
      email: user.email,
      username: user.username,
    });
    // Signing up signs in; being made by the CLI does not, and the CLI makes an administrator.
    const { last_sign_in_at: _a, is_admin: bobAdmin, ...bobShape } = shapeOf(bob, names(bob, users.bob));
    const { last_sign_in_at: _b, is_admin: carolAdmin, ...carolShape } = shapeOf(carol, names(carol, users.carol));
    expect(carolShape).toEqual(bobShape);
    expect([bobAdmin, carolAdmin]).toEqual([0, 1]);

    const identityOf = (id: string) => db().selectFrom('identities').selectAll().where('account_id', '=', id).execute();
    const [bobIds, carolIds] = [await identityOf(String(bob?.id)), await identityOf(String(carol?.id))];
    expect(carolIds).toHaveLength(1);
    expect(shapeOf(carolIds[0], names(carol, users.carol))).toEqual(shapeOf(bobIds[0], names(bob, users.bob)));

    const feed = await db()
      .selectFrom('activity_logs')
      .select(['action', 'resource'])
      .where('account_id', '=', String(carol?.id))
      .execute();
    expect(feed).toEqual([{ action: 'REGISTER', resource: 'users' }]);
  });

  it('makes a Users-page user with the rows and defaults of one that signed up to the app', async () => {
    const signUp = await server.request('POST', '/auth/v1/signup', {
      headers: appKeyHeaders(developer.app.anonKey),
      json: { email: 'ann@example.com', password: 'End-User-Passw0rd!', data: { username: 'ann' } },
    });
    expect(signUp.status).toBe(200);
    const added = await server.request('POST', '/api/users', {
      headers: developer.headers,
      json: { username: 'bea', email: 'bea@example.com', password: 'End-User-Passw0rd!' },
    });
    expect(added.status).toBe(201);
    const userOf = (email: string) =>
      db().selectFrom('app_users').selectAll().where('email', '=', email).executeTakeFirst();
    const [ann, bea] = [await userOf('ann@example.com'), await userOf('bea@example.com')];
    const annNames = { id: String(ann?.id), email: 'ann@example.com', username: 'ann' };
    const beaNames = { id: String(bea?.id), email: 'bea@example.com', username: 'bea' };
    // Signing up signs in; being added on the Users page does not.
    const { last_sign_in_at: _a, ...annShape } = shapeOf(ann, annNames);
    const { last_sign_in_at: _b, ...beaShape } = shapeOf(bea, beaNames);
    expect(beaShape).toEqual(annShape);

    const identityOf = (id: string) =>
      db().selectFrom('app_identities').selectAll().where('account_id', '=', id).execute();
    const [annIds, beaIds] = [await identityOf(annNames.id), await identityOf(beaNames.id)];
    expect(beaIds).toHaveLength(1);
    expect(shapeOf(beaIds[0], beaNames)).toEqual(shapeOf(annIds[0], annNames));

    // The owner's feed says the user signed up, or was added.
    const feed = await db()
      .selectFrom('activity_logs')
      .select(['action', 'resource'])
      .where('account_id', '=', developer.id)
      .where('resource', '=', 'app_users')
      .orderBy('id')
      .execute();
    expect(feed).toEqual([
      { action: 'REGISTER', resource: 'app_users' },
      { action: 'CREATE', resource: 'app_users' },
    ]);
  });
});

import { decodeJwt } from 'jose';
import { type AuthDeps, createAuthDeps } from '../features/auth/auth-deps.js';
import { startSignedInSession } from '../features/auth/signin/sign-in.service.js';
import { findAccountById } from '../features/auth/users/accounts.store.js';
import { createCheckpoint } from '../features/history/checkpoints.service.js';
import { createApiKey } from '../features/keys/keys.service.js';
import { createRecords } from '../features/records/records.service.js';
import { createTable, findTableByName } from '../features/tables/tables.service.js';
import { signUpUser, tamper, users } from '../testing/auth.fixtures.js';
import type { TestServer } from '../testing/test-server.js';
import type { Credentials } from './fuzz-inputs.js';
import { ITEMS, type KnownIds } from './fuzz-routes.js';

// The accounts the API fuzz test acts as: "alice" owns the `items` table (with rows, history and a
// checkpoint) and an API key; "bob" is the user the auth routes act on. A fuzzed request may succeed at
// something that takes them away (a logout, a dropped table, a deleted key): keep() puts back what the next
// request needs, before that request's "before" picture is taken.

const ROWS = [
  { title: 'apple', qty: 5, done: true, due: '2025-01-01', meta: { a: 1 }, tags: ['red'] },
  { title: 'banana', qty: 12, done: false, due: null, meta: null, tags: [] },
  { title: 'cherry', qty: null, done: null, due: '2025-03-01T10:00:00Z', meta: { a: { b: [1, 2] } }, tags: ['x', 'y'] },
];

interface Member {
  id: string;
  token: string;
}

/** FuzzAccounts are the fuzzed accounts and what they own; headersFor() turns a credential into headers. */
export class FuzzAccounts {
  private keySecret = '';
  private keyId = 0;
  private tableId = 0;
  private changeIds: string[] = [];
  private checkpointIds: string[] = [];

  private constructor(
    private readonly server: TestServer,
    private readonly deps: AuthDeps,
    private readonly alice: Member,
    private readonly bob: Member,
  ) {}

  /** create signs both users up and gives alice her table, rows, checkpoint and key. */
  static async create(server: TestServer): Promise<FuzzAccounts> {
    const alice = await signUpUser(server, users.alice);
    const bob = await signUpUser(server, users.bob);
    const deps = await createAuthDeps(server.app.basalt);
    const accounts = new FuzzAccounts(
      server,
      deps,
      { id: alice.id, token: alice.accessToken },
      { id: bob.id, token: bob.accessToken },
    );
    await accounts.keep();
    return accounts;
  }

  private get db() {
    return this.server.app.basalt.db;
  }

  /** known are the ids requests may name, read as each request is generated. */
  readonly known: KnownIds = {
    tables: () => [String(this.tableId)],
    keys: () => [String(this.keyId)],
    changes: () => this.changeIds,
    checkpoints: () => this.checkpointIds,
    users: () => [this.bob.id],
  };

  /** keep restores whatever a request took away; it answers whether it changed anything. */
  async keep(): Promise<boolean> {
    let changed = false;
    for (const member of [this.alice, this.bob]) changed = (await this.keepSession(member)) || changed;
    const caller = { accountId: this.alice.id };
    if (!(await findTableByName(this.db, caller, ITEMS.name))) {
      const table = await createTable(this.db, caller, ITEMS);
      const definition = await findTableByName(this.db, caller, ITEMS.name);
      if (!definition) throw new Error('the fuzzed table was not created');
      await createRecords(this.db, caller, definition, ROWS);
      const checkpoint = await createCheckpoint(this.db, caller, { tableId: table.id, name: 'fuzz' });
      this.tableId = table.id;
      this.checkpointIds = [String(checkpoint.id)];
      const changes = await this.db.kysely
        .selectFrom('change_history')
        .select('id')
        .where('table_id', '=', table.id)
        .execute();
      this.changeIds = changes.map((c) => String(c.id));
      changed = true;
    }
    const key = await this.db.kysely
      .selectFrom('api_keys')
      .select('id')
      .where('id', '=', this.keyId)
      .executeTakeFirst();
    if (!key) {
      const created = await createApiKey(this.db, caller, { name: 'fuzz' });
      this.keySecret = created.key;
      this.keyId = created.id;
      changed = true;
    }
    return changed;
  }

  // A new session when the member's was ended (a logout, a password change); none once the account is gone.
  private async keepSession(member: Member): Promise<boolean> {
    const sessionId = decodeJwt(member.token).session_id;
    const live = await this.db.kysely
      .selectFrom('auth_sessions')
      .select('id')
      .where('id', '=', String(sessionId))
      .executeTakeFirst();
    if (live) return false;
    const account = await findAccountById(this.db.kysely, member.id);
    if (!account) return false;
    const signedIn = await startSignedInSession(this.deps, account, {
      method: 'password',
      client: { ip: '127.0.0.1', userAgent: 'fuzz' },
    });
    member.token = signedIn.session.accessToken;
    return true;
  }

  /** headersFor is what a request claiming these credentials sends. */
  headersFor(credentials: Credentials): Record<string, string> {
    const { anonKey, serviceKey } = this.server;
    const bearer = (token: string) => ({ apikey: anonKey, authorization: `Bearer ${token}` });
    switch (credentials) {
      case 'user':
        return bearer(this.alice.token);
      case 'other-user':
        return bearer(this.bob.token);
      case 'api-key':
        return bearer(this.keySecret);
      case 'anon-key':
        return bearer(anonKey);
      case 'service-key':
        return { apikey: serviceKey, authorization: `Bearer ${serviceKey}` };
      case 'none':
        return {};
      case 'garbage-bearer':
        return bearer('garbage');
      case 'malformed-jwt':
        return bearer('eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0');
      case 'forged-jwt':
        return bearer(tamper(this.alice.token));
      case 'unknown-api-key':
        return bearer('bsk_0000000000000000000000000000000000000000');
      case 'garbage-apikey':
        return { apikey: 'garbage\u00ff', authorization: `Bearer ${this.alice.token}` };
      case 'garbage-cookie':
        return { cookie: 'basalt_session=garbage; basalt_csrf=x', 'x-csrf-token': 'y' };
    }
  }
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../testing/account.fixtures.js';
import { type ApiScenario, runScenario, type SignedInTestUser } from '../../testing/auth.fixtures.js';
import { type SqlSuite, startSqlSuite, uploadSql } from '../../testing/sql-suite.fixtures.js';
import type { TestTarget } from '../../testing/sql-targets.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// SQL Execution's connections and files on both of Basalt's engines: what a developer does with them, and bad
// input on every endpoint (never a 500).

const fieldError = (message: string) => ({ code: 'validation_failed', message });

describe.each(testDialects)('SQL connections and files API on %s', (dialect) => {
  let suite: SqlSuite;
  let server: TestServer;
  let pgTarget: TestTarget;
  let alice: SignedInTestUser;
  let bob: SignedInTestUser;
  let carol: SignedInTestUser;
  let mallory: SignedInTestUser;
  let project: string;
  let malloryProject: string;
  let pgConnection: number;
  let malloryConnection: number;

  beforeAll(async () => {
    suite = await startSqlSuite(dialect);
    ({ server, pgTarget, alice, bob, carol, mallory, project, malloryProject, pgConnection, malloryConnection } =
      suite);
  }, 60_000);
  afterAll(() => suite.close());

  const url = (path: string) => `/api/projects/${project}${path}`;
  const upload = (user: SignedInTestUser, name: string, content: string | Buffer, projectId = project) =>
    uploadSql(server, user, projectId, name, content);

  describe('connections', () => {
    it('registers a connection with its secret sealed and masked, never answered', async () => {
      const res = await runScenario(server, {
        name: 'create',
        method: 'POST',
        url: () => url('/database-connections'),
        headers: () => bearer(bob),
        json: {
          name: 'With details',
          provider: 'SUPABASE',
          engine: 'POSTGRESQL',
          connectionDetails: {
            host: 'db.example.com',
            port: 6543,
            database: 'app',
            username: 'u',
            password: 'hunter2-secret',
          },
        },
        status: 201,
        expected: {
          name: 'With details',
          engine: 'POSTGRESQL',
          isActive: true,
          lastConnected: null,
          connectionString: null,
          connectionDetails: {
            host: 'db.example.com',
            port: 6543,
            database: 'app',
            username: 'u',
            ssl: false,
            hasPassword: true,
          },
        },
      });
      expect(res.text).not.toContain('hunter2-secret');
      const withUrl = await server.request('POST', url('/database-connections'), {
        headers: bearer(bob),
        json: {
          name: 'With URL',
          provider: 'NEON',
          engine: 'MYSQL',
          connectionString: 'mysql://me:s3cret-pw@my.example.com/app',
        },
      });
      expect(withUrl.body.connectionString).toBe('mysql://me:****@my.example.com/app');
      const rows = await server.app.basalt.db.kysely.selectFrom('database_connections').selectAll().execute();
      const stored = JSON.stringify(rows);
      expect(stored).not.toContain('hunter2-secret');
      expect(stored).not.toContain('s3cret-pw');
      const list = await server.request('GET', url('/database-connections'), { headers: bearer(alice) });
      expect(list.status).toBe(200);
      expect(list.body.map((c: { name: string }) => c.name)).toEqual(['Target PG', 'With details', 'With URL']);
      expect(list.text).not.toContain('s3cret-pw');
      for (const c of list.body.slice(1)) {
        expect(
          (await server.request('DELETE', url(`/database-connections/${c.id}`), { headers: bearer(bob) })).status,
        ).toBe(200);
      }
    });

    const base: Record<string, unknown> = {
      name: 'x',
      provider: 'CUSTOM',
      engine: 'POSTGRESQL',
      connectionString: 'postgres://h/db',
    };
    const bad: ApiScenario[] = [
      { name: 'no token', method: 'POST', url: () => url('/database-connections'), json: base, status: 401 },
      {
        name: 'a VIEWER',
        method: 'POST',
        url: () => url('/database-connections'),
        headers: () => bearer(carol),
        json: base,
        status: 403,
        expected: { code: 'sql_role_required' },
      },
      {
        name: 'a stranger',
        method: 'GET',
        url: () => url('/database-connections'),
        headers: () => bearer(mallory),
        status: 404,
        expected: { code: 'project_not_found' },
      },
      {
        name: 'an unknown project',
        method: 'GET',
        url: '/api/projects/nope/database-connections',
        headers: () => bearer(alice),
        status: 404,
      },
      {
        name: 'a malformed project id',
        method: 'GET',
        url: '/api/projects/a%20b%27/database-connections',
        headers: () => bearer(alice),
        status: 404,
      },
      {
        name: 'MongoDB',
        method: 'POST',
        url: () => url('/database-connections'),
        headers: () => bearer(bob),
        json: { ...base, engine: 'MONGODB' },
        status: 400,
        expected: fieldError('MongoDB connections are not supported yet'),
      },
      {
        name: 'no name',
        method: 'POST',
        url: () => url('/database-connections'),
        headers: () => bearer(bob),
        json: { ...base, name: ' ' },
        status: 400,
        expected: fieldError('Name is required'),
      },
      {
        name: 'a bad provider',
        method: 'POST',
        url: () => url('/database-connections'),
        headers: () => bearer(bob),
        json: { ...base, provider: 'AWS' },
        status: 400,
      },
      {
        name: 'neither string nor details',
        method: 'POST',
        url: () => url('/database-connections'),
        headers: () => bearer(bob),
        json: { name: 'x', provider: 'CUSTOM', engine: 'MYSQL' },
        status: 400,
        expected: fieldError('Give either a connection string or connection details'),
      },
      {
        name: 'a scheme of another engine',
        method: 'POST',
        url: () => url('/database-connections'),
        headers: () => bearer(bob),
        json: { ...base, engine: 'MYSQL' },
        status: 400,
        expected: { message: 'A MySQL connection string starts with mysql:// or mariadb://' },
      },
      {
        name: 'not a URL',
        method: 'POST',
        url: () => url('/database-connections'),
        headers: () => bearer(bob),
        json: { ...base, connectionString: 'host=x' },
        status: 400,
      },
      {
        name: "another project's connection",
        method: 'PATCH',
        url: () => url(`/database-connections/${malloryConnection}`),
        headers: () => bearer(bob),
        json: { name: 'mine' },
        status: 404,
      },
      {
        name: 'an unknown connection',
        method: 'DELETE',
        url: () => url('/database-connections/999999'),
        headers: () => bearer(bob),
        status: 404,
      },
      {
        name: 'a malformed connection id',
        method: 'POST',
        url: () => url('/database-connections/abc/test'),
        headers: () => bearer(bob),
        status: 404,
      },
      {
        name: 'an unknown field',
        method: 'PATCH',
        url: () => url(`/database-connections/${pgConnection}`),
        headers: () => bearer(bob),
        json: { userId: 'x' },
        status: 400,
      },
    ];
    it.each(bad)('refuses $name', async (scenario) => {
      await runScenario(server, scenario);
    });

    it('tests a connection (setting lastConnected) and names an unreachable host', async () => {
      const ok = await server.request('POST', url(`/database-connections/${pgConnection}/test`), {
        headers: bearer(bob),
      });
      expect(ok.body).toMatchObject({ success: true, serverVersion: expect.stringContaining('PostgreSQL') });
      const listed = await server.request('GET', url('/database-connections'), { headers: bearer(bob) });
      expect(listed.body[0].lastConnected).toBe(ok.body.lastConnected);
      const dead = await server.request('POST', url('/database-connections'), {
        headers: bearer(bob),
        json: {
          name: 'Dead',
          provider: 'CUSTOM',
          engine: 'POSTGRESQL',
          connectionString: 'postgres://u@127.0.0.1:1/x',
        },
      });
      const test = await server.request('POST', url(`/database-connections/${dead.body.id}/test`), {
        headers: bearer(bob),
      });
      expect(test.body).toMatchObject({
        success: false,
        message: 'Could not connect to 127.0.0.1:1: connection refused',
      });
      const run = await server.request('POST', url('/execute-direct-sql'), {
        headers: bearer(bob),
        json: { sql: 'select 1', connectionId: dead.body.id },
      });
      expect(run).toMatchObject({
        status: 400,
        body: { code: 'connection_failed', message: expect.stringContaining('127.0.0.1:1') },
      });
      const patched = await server.request('PATCH', url(`/database-connections/${dead.body.id}`), {
        headers: bearer(bob),
        json: { isActive: false, name: 'Dead (off)' },
      });
      expect(patched.body).toMatchObject({ isActive: false, name: 'Dead (off)' });
      const inactive = await server.request('POST', url('/execute-direct-sql'), {
        headers: bearer(bob),
        json: { sql: 'select 1', connectionId: dead.body.id },
      });
      expect(inactive).toMatchObject({ status: 400, body: { code: 'connection_inactive' } });
      await server.request('DELETE', url(`/database-connections/${dead.body.id}`), { headers: bearer(bob) });
    });

    it('lists a connection’s tables for the editor', async () => {
      await pgTarget.query('create table if not exists customers (id int, email text)');
      const res = await server.request('GET', url(`/database-connections/${pgConnection}/tables`), {
        headers: bearer(bob),
      });
      expect(res.body.tables).toContainEqual({ name: 'customers', columns: ['id', 'email'] });
    });
  });

  describe('files', () => {
    it('uploads a .sql file, lists it and deletes it with its bytes', async () => {
      const res = await upload(bob, 'init.sql', 'select 1;');
      expect(res).toMatchObject({
        status: 201,
        body: {
          fileName: 'init.sql',
          fileType: 'sql',
          fileSize: 9,
          projectId: project,
          metadata: { description: 'a migration' },
        },
      });
      const list = await server.request('GET', url('/files?type=sql'), { headers: bearer(alice) });
      expect(list.body.map((f: { id: number }) => f.id)).toContain(res.body.id);
      expect((await server.request('GET', url('/files'), { headers: bearer(mallory) })).status).toBe(404);
      expect(
        (
          await server.request('DELETE', `/api/projects/${malloryProject}/files/${res.body.id}`, {
            headers: bearer(mallory),
          })
        ).status,
      ).toBe(404);
      expect((await server.request('DELETE', url(`/files/${res.body.id}`), { headers: bearer(bob) })).status).toBe(200);
      expect((await server.request('DELETE', url(`/files/${res.body.id}`), { headers: bearer(bob) })).status).toBe(404);
    });

    it.each([
      ['no boundary', 'multipart/form-data', 'x'],
      [
        'a garbled body',
        'multipart/form-data; boundary=zz',
        '--zz\r\nContent-Disposition: form-data; name="file"; filename="a.sql"\r\n\r\nselect',
      ],
      ['a body cut short', 'multipart/form-data; boundary=zz', '--zz\r\nContent-Dispos'],
      ['plain text', 'text/plain', 'select 1'],
    ])('answers a malformed upload (%s) with a 4xx', async (_name, type, body) => {
      const res = await fetch(`${server.url}${url('/files/upload')}`, {
        method: 'POST',
        headers: { ...bearer(bob), 'content-type': type },
        body,
      });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    });

    it('refuses a wrong type, a binary file, no file, a file too large, a VIEWER and JSON', async () => {
      expect(await upload(bob, 'notes.txt', 'select 1')).toMatchObject({
        status: 400,
        body: { message: 'Only .sql files can be uploaded' },
      });
      expect(await upload(bob, 'bin.sql', Buffer.from([0, 1, 2, 255]))).toMatchObject({
        status: 400,
        body: { code: 'file_not_text' },
      });
      expect(await upload(carol, 'a.sql', 'select 1')).toMatchObject({ status: 403 });
      expect(await upload(mallory, 'a.sql', 'select 1')).toMatchObject({ status: 404 });
      expect(await upload(mallory, 'a.sql', 'select 1', project)).toMatchObject({ status: 404 });
      const mismatch = new FormData();
      mismatch.set('projectId', malloryProject);
      mismatch.set('file', new Blob(['select 1']), 'a.sql');
      const res = await fetch(`${server.url}${url('/files/upload')}`, {
        method: 'POST',
        headers: bearer(bob),
        body: mismatch,
      });
      expect(res.status).toBe(400);
      expect(await upload(bob, 'big.sql', Buffer.alloc(10 * 1024 * 1024 + 1, 0x20))).toMatchObject({ status: 413 });
      const form = new FormData();
      form.set('description', 'no file');
      const none = await fetch(`${server.url}${url('/files/upload')}`, {
        method: 'POST',
        headers: bearer(bob),
        body: form,
      });
      expect(none.status).toBe(400);
      const json = await server.request('POST', url('/files/upload'), { headers: bearer(bob), json: { file: 'x' } });
      expect(json.status).toBe(400);
    });
  });
});

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Developer, startDeveloper } from '../../testing/apps.fixtures.js';
import { startAuthServer, users } from '../../testing/auth.fixtures.js';
import { createTable, type KeyedUser, seedItems, signUpWithKey } from '../../testing/public-api.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// An account carries its tables to another Basalt: exported on one instance (either engine), imported on another
// (either engine) into an account that already has a table of the same name, read back through the unmodified
// supabase-js. A dry run reports and changes nothing; bad archives and bad calls are clear 4xx that change nothing.

// The export's engine and the import's: every pair the run has.
const pairs = testDialects.flatMap((from) => testDialects.map((to) => ({ from, to })));

async function exportOf(server: TestServer, headers: Record<string, string>, query = '') {
  const res = await fetch(`${server.url}/api/account/export${query}`, { headers });
  return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
}

async function importInto(server: TestServer, headers: Record<string, string>, archive: Buffer, query = '') {
  const res = await fetch(`${server.url}/api/account/import${query}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/gzip' },
    body: new Uint8Array(archive),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

describe.each(pairs)('an account exported on $from and imported on $to', ({ from, to }) => {
  let source: TestServer;
  let target: TestServer;
  let owner: Developer;
  let mover: Developer;
  let archive: Buffer;

  beforeAll(async () => {
    source = await startAuthServer(from);
    target = await startAuthServer(to);
    owner = await startDeveloper(source, users.alice);
    const keyed: KeyedUser = await signUpWithKey(source, users.bob);
    const asOwner = { ...keyed, tokenHeaders: owner.headers, keyHeaders: owner.headers };
    await createTable(source, asOwner, 'items');
    await seedItems(source, { ...asOwner, keyHeaders: { ...owner.headers } }, 'items', 7);
    await createTable(source, asOwner, 'notes', { body: { type: 'text' }, when: { type: 'date' } });
    await source.request('PATCH', '/api/tables/2', { headers: owner.headers, json: { access: { select: 'public' } } });
    // Someone else's table never leaves with alice's.
    await createTable(source, keyed, 'secret_of_bob');
    mover = await startDeveloper(target, users.carol);
    await target.request('POST', '/api/tables', {
      headers: mover.headers,
      json: { name: 'items', schema: { other: { type: 'text' } } },
    });
    const exported = await exportOf(source, owner.headers);
    expect(exported.status).toBe(200);
    expect(exported.type).toBe('application/gzip');
    archive = exported.body;
  }, 60_000);

  afterAll(async () => {
    await source?.close();
    await target?.close();
  });

  it('reports what a dry run would do, and changes nothing', async () => {
    const before = (await target.request('GET', '/api/tables', { headers: mover.headers })).body;
    const res = await importInto(target, mover.headers, archive, '?dryRun=true');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      dryRun: true,
      totals: { tables: 2, rows: 7 },
      tables: [
        { name: 'items', importedAs: 'items_2', renamed: true, rows: 7 },
        { name: 'notes', importedAs: 'notes', renamed: false, rows: 0 },
      ],
    });
    expect(res.body.totals.history).toBeGreaterThan(0);
    expect((await target.request('GET', '/api/tables', { headers: mover.headers })).body).toEqual(before);
  });

  it('imports the tables with their ids, rows, access rules and history, read back by supabase-js', async () => {
    const res = await importInto(target, mover.headers, archive);
    expect(res.status).toBe(201);
    expect(res.body.tables.map((t: { importedAs: string }) => t.importedAs)).toEqual(['items_2', 'notes']);
    const read = async (client: Developer['client'], table: string) =>
      (await client.from(table).select('*').order('id')).data?.map(({ created_at, updated_at, ...row }) => row);
    expect(await read(mover.client, 'items_2')).toEqual(await read(owner.client, 'items'));
    const tables = (await target.request('GET', '/api/tables', { headers: mover.headers })).body;
    const notes = tables.find((t: { name: string }) => t.name === 'notes');
    expect(notes.access).toMatchObject({ select: 'public' });
    expect(tables.some((t: { name: string }) => t.name === 'secret_of_bob')).toBe(false);
    const history = await target.request(
      'GET',
      `/api/history?tableId=${tables.find((t: { name: string }) => t.name === 'items_2').id}`,
      {
        headers: mover.headers,
      },
    );
    expect(history.status).toBe(200);
    // A new row continues after the imported ids.
    const { data } = await mover.client.from('items_2').insert({ name: 'after', sku: 'NEW-1' }).select().single();
    expect(data?.id).toBe(8);
  });
});

describe.each(testDialects)('account import refusals on %s', (dialect) => {
  let server: TestServer;
  let alice: KeyedUser;
  let good: Buffer;
  let scratch: string;

  beforeAll(async () => {
    server = await startAuthServer(dialect, {
      backups: { dir: null, format: 'auto', uploadMaxBytes: 1024 ** 2, scheduler: false, pace: 1 },
    });
    alice = await signUpWithKey(server, users.alice);
    await createTable(server, alice, 'items');
    await seedItems(server, alice, 'items', 2);
    good = (await exportOf(server, alice.tokenHeaders, '?history=false')).body;
    scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-import-'));
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    if (scratch) await fs.rm(scratch, { recursive: true, force: true });
  });

  const tampered = async (name: string, change: (dir: string) => Promise<void>) => {
    const dir = path.join(scratch, name);
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(scratch, `${name}.in`), good);
    await tar.x({ file: path.join(scratch, `${name}.in`), cwd: dir });
    await change(dir);
    const out = path.join(scratch, `${name}.tar.gz`);
    await tar.c({ gzip: true, cwd: dir, file: out }, await fs.readdir(dir));
    return fs.readFile(out);
  };
  const rewrite = async (dir: string, file: string, edit: (text: string) => string) => {
    const at = path.join(dir, file);
    await fs.writeFile(at, edit(await fs.readFile(at, 'utf8')));
    // The manifest's checksums follow, so that only the content is wrong.
    const manifest = JSON.parse(await fs.readFile(path.join(dir, 'manifest.json'), 'utf8'));
    const { createHash } = await import('node:crypto');
    for (const part of manifest.parts[0].files) {
      const bytes = await fs.readFile(path.join(dir, part.path));
      part.bytes = bytes.length;
      part.sha256 = createHash('sha256').update(bytes).digest('hex');
    }
    await fs.writeFile(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
  };
  const tableCount = async () =>
    (await server.request('GET', '/api/tables', { headers: alice.tokenHeaders })).body.length;

  it('refuses calls without a signed-in account, with an API key, or with bad parameters', async () => {
    expect((await exportOf(server, {})).status).toBe(401);
    expect((await exportOf(server, alice.keyHeaders)).status).toBe(403);
    expect((await exportOf(server, alice.tokenHeaders, '?history=maybe')).status).toBe(400);
    expect((await exportOf(server, alice.tokenHeaders, '?files=true')).status).toBe(400);
    expect((await importInto(server, {}, good)).status).toBe(401);
    expect((await importInto(server, alice.keyHeaders, good)).status).toBe(403);
    expect((await importInto(server, alice.tokenHeaders, good, '?dryRun=perhaps')).status).toBe(400);
    const json = await server.request('POST', '/api/account/import', { headers: alice.tokenHeaders, json: { a: 1 } });
    expect(json.status).toBe(415);
  });

  it.each([
    ['random bytes', async () => Buffer.from('not an archive'), 400, /not a gzip-compressed tar/],
    ['an empty body', async () => Buffer.alloc(0), 400, /no archive/],
    ['a body over the limit', async () => Buffer.alloc(2 * 1024 ** 2, 7), 413, /larger than this server accepts/],
    [
      'an instance backup',
      async () =>
        tampered('instance', (dir) =>
          rewrite(dir, 'manifest.json', (text) => JSON.stringify({ ...JSON.parse(text), kind: 'instance' })),
        ),
      400,
      /not an account export/,
    ],
    [
      'a row whose value does not fit its column',
      async () =>
        tampered('row', (dir) => rewrite(dir, 'account/rows/1.ndjson', (text) => text.replace(/,20,/, ',"twenty",'))),
      400,
      /Row 2 of table "items": "qty" must be a number/,
    ],
    [
      'a table whose name breaks the rules',
      async () =>
        tampered('name', (dir) => rewrite(dir, 'account/tables.json', (text) => text.replace('"items"', '"1 drop"'))),
      400,
      /cannot be created: Table name must start with a letter/,
    ],
    [
      'a changed file',
      async () => tampered('sum', (dir) => fs.appendFile(path.join(dir, 'account/tables.json'), ' ')),
      400,
      /checksum of account\/tables.json does not match/,
    ],
  ])('refuses %s and imports nothing', async (_name, make, status, message) => {
    const before = await tableCount();
    const res = await importInto(server, alice.tokenHeaders, await make());
    expect(res.status).toBe(status);
    expect(res.body.message).toMatch(message);
    expect(await tableCount()).toBe(before);
  });
});

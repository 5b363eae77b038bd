import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADD_THEM,
  createAppTable,
  type Developer,
  defineSqlFunctions,
  startDeveloper,
} from '../../testing/apps.fixtures.js';
import { startAuthServer, users } from '../../testing/auth.fixtures.js';
import type { TestServer } from '../../testing/test-server.js';
import { genTypesFromCli } from './types-cli.js';

// GET /api/types.ts writes the Database type supabase-js takes; a small app is compiled against it with the real
// tsc and the real supabase-js types: embedded selects are typed through the references, and a wrong use fails.

const run = promisify(execFile);
const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const tsc = path.resolve(serverRoot, '../../node_modules/typescript/bin/tsc');

const APP = `import { createClient } from '@supabase/supabase-js';
import type { Database, Tables } from './database.types';

const client = createClient<Database>('http://127.0.0.1:1', 'key');

export async function main(): Promise<string> {
  const { data } = await client.from('posts').select('id, title, author:authors(name), comments(body)').single();
  const name: string | null | undefined = data?.author?.name;
  const bodies: Array<string | null> = (data?.comments ?? []).map((c) => c.body);
  const row: Tables<'authors'> = { id: 1, created_at: '', updated_at: '', name: 'Ada' };
  await client.from('posts').insert({ title: 'x', author_id: 1 });
  // @ts-expect-error title is text, not a number
  await client.from('posts').insert({ title: 5 });
  // @ts-expect-error no such table
  client.from('nothing_here');
  const { data: sum } = await client.rpc('add_them', { a: 1, b: 2 });
  const total: number | null = sum;
  // @ts-expect-error b is a number
  await client.rpc('add_them', { a: 1, b: 'two' });
  const { data: found } = await client.rpc('titled', { title: 'x' });
  const title: string | null | undefined = found?.[0]?.title;
  return \`\${name} \${bodies.length} \${row.name} \${total} \${title}\`;
}
`;

describe('generated TypeScript types', () => {
  let server: TestServer;
  let dev: Developer;
  let dir: string;

  beforeAll(async () => {
    server = await startAuthServer('sqlite');
    dev = await startDeveloper(server, users.alice);
    const ref = (table: string) => ({ type: 'number', references: { table, onDelete: 'cascade' } });
    await createAppTable(server, dev, { name: 'authors', schema: { name: { type: 'text', required: true } } });
    await createAppTable(server, dev, {
      name: 'posts',
      schema: { title: { type: 'text' }, author_id: ref('authors'), meta: { type: 'json' } },
    });
    await createAppTable(server, dev, { name: 'comments', schema: { body: { type: 'text' }, post_id: ref('posts') } });
    await defineSqlFunctions(server, dev, [
      ADD_THEM,
      {
        name: 'titled',
        params: [{ name: 'title', type: 'text' }],
        returns: { kind: 'rows', table: 'posts' },
        body: 'SELECT * FROM posts WHERE title = :title',
      },
    ]);
    dir = await mkdtemp(path.join(serverRoot, '.types-test-'));
  });
  afterAll(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the Database type with rows, inserts, updates and relationships', async () => {
    const res = await server.request('GET', '/api/types.ts', { headers: dev.headers });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(res.text).toContain('export type Database = {');
    expect(res.text).toContain('foreignKeyName: "posts_author_id_fkey"');
    expect(res.text).toContain('referencedRelation: "authors"');
    expect(res.text).toContain('add_them: {');
    expect(res.text).toContain('Args: { a: number; b: number }');
    const anonymous = await server.request('GET', '/api/types.ts');
    expect(anonymous.status).toBe(401);
  });

  it('`basalt gen types --app <username>` writes the same file', async () => {
    const lines: string[] = [];
    const errors: string[] = [];
    const output = { log: (l: string) => lines.push(l), error: (l: string) => errors.push(l) };
    const db = server.app.basalt.db;
    const served = await server.request('GET', '/api/types.ts', { headers: dev.headers });
    expect(await genTypesFromCli(db, 'types', { app: 'ALICE' }, output)).toBe(0);
    expect(lines).toEqual([served.text]);
    const file = path.join(dir, 'cli.types.ts');
    expect(await genTypesFromCli(db, 'types', { app: 'alice', out: file }, output)).toBe(0);
    expect(await readFile(file, 'utf8')).toBe(served.text);
    expect(await genTypesFromCli(db, 'types', { app: 'nobody-here' }, output)).toBe(1);
    expect(await genTypesFromCli(db, 'types', {}, output)).toBe(2);
    expect(await genTypesFromCli(db, 'nothing', { app: 'alice' }, output)).toBe(2);
    expect(errors).toEqual([
      `Wrote ${file}.`,
      'No account has the username "nobody-here".',
      'Usage: basalt gen types --app <username> [--out <file>]',
      'Usage: basalt gen types --app <username> [--out <file>]',
    ]);
  });

  it('compiles an app against the generated file with tsc, and catches a wrong use', async () => {
    const res = await server.request('GET', '/api/types.ts', { headers: dev.headers });
    await writeFile(path.join(dir, 'database.types.ts'), res.text);
    await writeFile(path.join(dir, 'app.ts'), APP);
    const options = [
      '--ignoreConfig',
      '--noEmit',
      '--strict',
      '--target',
      'es2022',
      '--module',
      'esnext',
      '--moduleResolution',
      'bundler',
      '--skipLibCheck',
    ];
    const compiled = await run(process.execPath, [tsc, ...options, path.join(dir, 'app.ts')]).then(
      () => ({ ok: true, out: '' }),
      (error: { stdout?: string }) => ({ ok: false, out: error.stdout ?? String(error) }),
    );
    expect(compiled.out).toBe('');
    expect(compiled.ok).toBe(true);
    // The same app with the embed's column misspelt does not compile.
    await writeFile(path.join(dir, 'app.ts'), APP.replace('data?.author?.name', 'data?.author?.nam'));
    const broken = await run(process.execPath, [tsc, ...options, path.join(dir, 'app.ts')]).then(
      () => true,
      () => false,
    );
    expect(broken).toBe(false);
  }, 120_000);
});

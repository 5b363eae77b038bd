import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqlText } from '../../db/sql-text.js';
import { searchIndexName } from '../../db/text-search/search-index.js';
import { toTsVector } from '../../db/text-search/ts-document.js';
import { writeCondition } from '../../db/user-conditions.js';
import { createAppTable, type Developer, startDeveloper } from '../../testing/apps.fixtures.js';
import { startAuthServer, users } from '../../testing/auth.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// A text column a table opts in to search on (`search: true`) gets a full-text index: a GIN index on
// PostgreSQL that the fts filters' expression uses, an FTS5 table on SQLite that the one records path keeps in
// step and that a search asks first. Searches answer exactly what they answer without it (a twin table without
// the flag is the reference), and the flag is a schema change like any other.

const OPEN = { select: 'public', insert: 'authenticated', update: 'authenticated', delete: 'authenticated' };
const BODIES = [
  'The fat cats sat on the mat',
  'Rats and cats: a fat history of rodents',
  'Supernovae and the supernatural',
  'a quick-thinking fox jumps',
  null,
  'Nothing to see here',
];
const SEARCHES: Array<[string, string, 'plain' | 'phrase' | 'websearch' | undefined]> = [
  ['fat & cat', 'fts', undefined],
  ['cat | supernova', 'fts', undefined],
  ['fat & !rat', 'fts', undefined],
  ['!cat', 'fts', undefined],
  ['super:*', 'fts', undefined],
  ['fat <-> cat', 'fts', undefined],
  ['cat:A', 'fts', undefined],
  ['the', 'fts', undefined],
  ['quick-thinking', 'fts', undefined],
  ['fat rats', 'plfts', 'plain'],
  ['fat cats sat', 'phfts', 'phrase'],
  ['"fat cats" or fox -rodents', 'wfts', 'websearch'],
];

describe.each(testDialects)('searchable text columns on %s', (dialect) => {
  let server: TestServer;
  let dev: Developer;
  const ids: Record<string, number> = {};
  const api = (method: string, url: string, json?: unknown) =>
    server.request(method, url, { headers: dev.headers, ...(json === undefined ? {} : { json }) });
  const kysely = () => server.app.basalt.db.kysely;
  const found = async (table: string, query: string, type?: 'plain' | 'phrase' | 'websearch', negated?: string) => {
    let read = dev.client.from(table).select('id');
    read = negated ? read.not('body', negated, query) : read.textSearch('body', query, type ? { type } : {});
    const { data, error } = await read.order('id');
    if (error) throw new Error(`${table} ${query}: ${error.message}`);
    return data.map((row) => row.id);
  };
  // What the FTS5 table holds, against what each row's text gives (SQLite).
  const ftsInStep = async () => {
    const name = searchIndexName('sqlite', ids.notes as number, 'body');
    const { rows } = await sql<{ id: number; lexemes: string }>`SELECT rowid AS id, lexemes FROM ${sql.id(name)}
      ORDER BY rowid`.execute(kysely());
    const { data } = await dev.client.from('notes').select('id, body').not('body', 'is', null).order('id');
    const expected = (data ?? []).map((row) => ({ id: row.id, lexemes: [...toTsVector(row.body).keys()].join(' ') }));
    expect(rows.map((row) => ({ id: Number(row.id), lexemes: row.lexemes }))).toEqual(expected);
  };

  beforeAll(async () => {
    server = await startAuthServer(dialect);
    dev = await startDeveloper(server, users.alice);
    ids.notes = await createAppTable(server, dev, {
      name: 'notes',
      schema: { body: { type: 'text', search: true }, n: { type: 'number' } },
      access: OPEN,
    });
    ids.plain = await createAppTable(server, dev, {
      name: 'plain_notes',
      schema: { body: { type: 'text' }, n: { type: 'number' } },
      access: OPEN,
    });
    for (const table of ['notes', 'plain_notes']) {
      const { error } = await dev.client.from(table).insert(BODIES.map((body, n) => ({ body, n })));
      if (error) throw new Error(error.message);
    }
  });
  afterAll(() => server.close());

  it('refuses the flag on a column that is not text, and a flag that is not a boolean', async () => {
    for (const schema of [{ n: { type: 'number', search: true } }, { j: { type: 'json', search: true } }]) {
      const res = await api('POST', '/api/tables', { name: 'bad_search', schema });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain('Only a text column can be searchable');
    }
    const res = await api('POST', '/api/tables', {
      name: 'bad_search',
      schema: { t: { type: 'text', search: 'yes' } },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('Searchable must be true or false');
    expect(
      (await api('PATCH', `/api/tables/${ids.plain}`, { schema: { n: { type: 'number', search: true } } })).status,
    ).toBe(400);
  });

  it('answers every search exactly as without the index', async () => {
    for (const [query, op, type] of SEARCHES) {
      expect(await found('notes', query, type), query).toEqual(await found('plain_notes', query, type));
      expect(await found('notes', query, type, op), `not ${query}`).toEqual(
        await found('plain_notes', query, type, op),
      );
    }
    expect(await found('notes', 'fat & cat')).toEqual([1, 2]);
    // A malformed query is still PostgreSQL's 42601.
    const { error, status } = await dev.client.from('notes').select('id').textSearch('body', 'fat &');
    expect(status).toBe(400);
    expect(error?.code).toBe('42601');
  });

  it('reads the search through the index', async () => {
    const out = new SqlText(dialect === 'postgres');
    const shape = {
      id: ids.notes as number,
      schema: { body: { type: 'text' as const, required: false, unique: false, search: true } },
    };
    out.raw(`${dialect === 'postgres' ? 'EXPLAIN' : 'EXPLAIN QUERY PLAN'} SELECT id FROM "t_${ids.notes}" WHERE `);
    writeCondition(out, server.app.basalt.db.dialect, shape, {
      kind: 'search',
      column: 'body',
      op: 'fts',
      config: null,
      query: 'fat & cat',
    });
    const compiled = out.compiled<Record<string, unknown>>();
    const plan = await kysely()
      .transaction()
      .execute(async (trx) => {
        // A table of six rows is read whole unless the planner is told not to.
        if (dialect === 'postgres') await sql`SET LOCAL enable_seqscan = off`.execute(trx);
        return (await trx.executeQuery(compiled)).rows.map((row) => Object.values(row).join(' ')).join('\n');
      });
    expect(plan).toContain(searchIndexName(dialect, ids.notes as number, 'body'));
    if (dialect === 'postgres') expect(plan).toMatch(/Bitmap Index Scan/);
    else expect(plan).toMatch(/VIRTUAL TABLE INDEX/);
  });

  it('keeps the index in step with inserts, updates, deletes and their reverts', async () => {
    const { data: added } = await dev.client.from('notes').insert({ body: 'Cats again' }).select().single();
    await dev.client.from('notes').update({ body: 'Dogs now' }).eq('id', 1);
    await dev.client.from('notes').delete().eq('id', 2);
    expect(await found('notes', 'cat')).toEqual([added.id]);
    expect(await found('notes', 'dog')).toEqual([1]);
    if (dialect === 'sqlite') await ftsInStep();
    const history = (await api('GET', `/api/history?tableId=${ids.notes}&limit=10`)).body.data as Array<{
      id: number;
      changeType: string;
      recordId: number;
    }>;
    const deletion = history.find((e) => e.changeType === 'RECORD_DELETE' && e.recordId === 2);
    const update = history.find((e) => e.changeType === 'RECORD_UPDATE' && e.recordId === 1);
    expect((await api('POST', `/api/history/${deletion?.id}/revert`)).status).toBe(200);
    expect((await api('POST', `/api/history/${update?.id}/revert`)).status).toBe(200);
    expect(await found('notes', 'fat & cat')).toEqual([1, 2]);
    expect(await found('notes', 'dog')).toEqual([]);
    if (dialect === 'sqlite') await ftsInStep();
    await dev.client.from('notes').delete().eq('id', added.id);
  });

  it('builds the index again from the rows of an imported account', async () => {
    const exported = await fetch(`${server.url}/api/account/export`, { headers: dev.headers });
    expect(exported.status).toBe(200);
    const target = await startAuthServer(dialect);
    try {
      const mover = await startDeveloper(target, users.bob);
      const imported = await fetch(`${target.url}/api/account/import`, {
        method: 'POST',
        headers: { ...mover.headers, 'content-type': 'application/gzip' },
        body: new Uint8Array(await exported.arrayBuffer()),
      });
      expect(imported.status).toBe(201);
      const { data, error } = await mover.client.from('notes').select('id, body').textSearch('body', 'fat & cat');
      expect(error).toBeNull();
      expect(data?.map((row) => row.body)).toEqual([BODIES[0], BODIES[1]]);
    } finally {
      await target.close();
    }
  });

  it('is a schema change: previewed, recorded, renamed with its column, dropped and brought back by a revert', async () => {
    const name = () => searchIndexName(dialect, ids.notes as number, 'body');
    const preview = await api('POST', `/api/tables/${ids.plain}/schema/preview`, {
      schema: { body: { type: 'text', search: true }, n: { type: 'number' } },
    });
    expect(preview.status).toBe(200);
    expect(JSON.stringify(preview.body)).toContain('Make \\"body\\" searchable (a full-text index)');

    const exists = async (index: string) => {
      const { rows } =
        dialect === 'postgres'
          ? await sql`SELECT 1 FROM pg_indexes WHERE indexname = ${index}`.execute(kysely())
          : await sql`SELECT 1 FROM sqlite_schema WHERE name = ${index}`.execute(kysely());
      return rows.length > 0;
    };
    expect(await exists(name())).toBe(true);
    const off = await api('PATCH', `/api/tables/${ids.notes}`, {
      schema: { body: { type: 'text' }, n: { type: 'number' } },
    });
    expect(off.status).toBe(200);
    expect(await exists(name())).toBe(false);
    expect(await found('notes', 'fat & cat')).toEqual([1, 2]);
    const latest = (await api('GET', `/api/history?tableId=${ids.notes}&limit=1`)).body.data[0];
    expect(latest.changeType).toBe('SCHEMA_UPDATE');
    expect((await api('POST', `/api/history/${latest.id}/revert`)).status).toBe(200);
    expect(await exists(name())).toBe(true);
    expect(await found('notes', 'fat & cat')).toEqual([1, 2]);
    if (dialect === 'sqlite') await ftsInStep();

    // Renamed with its column: the index follows the new name, filled from the rows.
    const renamed = await api('PUT', `/api/tables/${ids.notes}/schema`, {
      schema: { text: { type: 'text', search: true }, n: { type: 'number' } },
      renames: { body: 'text' },
    });
    expect(renamed.status).toBe(200);
    expect(await exists(searchIndexName(dialect, ids.notes as number, 'text'))).toBe(true);
    expect(await exists(name())).toBe(false);
    const { data } = await dev.client.from('notes').select('id').textSearch('text', 'fat & cat').order('id');
    expect(data?.map((row) => row.id)).toEqual([1, 2]);
  });
});

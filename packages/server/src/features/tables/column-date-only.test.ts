import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInAccount, signIn } from '../../testing/tables.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';

// The date_only column type (issue 35: Supabase users expect a date that stays a date): 'YYYY-MM-DD' in and
// out of /api and /rest/v1, a real `date` column on PostgreSQL, filters and order, bad input refused with the
// family's error shape, and a timestamp column converted to it.

describe.each(testDialects)('date_only columns on %s', (dialect) => {
  let server: TestServer;
  let alice: SignedInAccount;
  let rest: Record<string, string>;
  let tableId = 0;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    alice = await signIn(server, 'alice');
    rest = { ...alice.headers, apikey: server.anonKey };
    const res = await server.request('POST', '/api/tables', {
      headers: alice.headers,
      json: { name: 'birthdays', schema: { who: { type: 'text' }, born: { type: 'date_only' }, at: { type: 'date' } } },
    });
    expect(res.status, res.text).toBe(201);
    tableId = res.body.id;
  }, 60_000);
  afterAll(() => server.close());

  it('stores and returns dates as YYYY-MM-DD through /api and /rest/v1', async () => {
    const created = await server.request('POST', `/api/tables/${tableId}/records`, {
      headers: alice.headers,
      json: { who: 'Ada', born: '1815-12-10', at: '2025-05-01' },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ born: '1815-12-10', at: '2025-05-01T00:00:00.000Z' });
    const posted = await server.request('POST', '/rest/v1/birthdays', {
      headers: { ...rest, prefer: 'return=representation' },
      json: [
        { who: 'Grace', born: '1906-12-09T23:30:00-05:00' },
        { who: 'Alan', born: '1912-06-23' },
      ],
    });
    expect(posted.status, posted.text).toBe(201);
    expect(posted.body.map((r: { born: string }) => r.born)).toEqual(['1906-12-09', '1912-06-23']);
    const read = await server.request('GET', '/rest/v1/birthdays?select=who,born&order=born.desc', { headers: rest });
    expect(read.body).toEqual([
      { who: 'Alan', born: '1912-06-23' },
      { who: 'Grace', born: '1906-12-09' },
      { who: 'Ada', born: '1815-12-10' },
    ]);
    const filtered = await server.request(
      'GET',
      '/rest/v1/birthdays?select=who&born=gte.1900-01-01&born=lt.1912-06-23',
      {
        headers: rest,
      },
    );
    expect(filtered.body).toEqual([{ who: 'Grace' }]);
    const eq = await server.request('GET', '/rest/v1/birthdays?select=who&born=eq.1815-12-10', { headers: rest });
    expect(eq.body).toEqual([{ who: 'Ada' }]);
    const list = await server.request('GET', `/api/tables/${tableId}/records?orderBy=born&order=asc`, {
      headers: alice.headers,
    });
    expect(list.status, list.text).toBe(200);
    expect(list.body.data.map((r: { born: string }) => r.born)).toEqual(['1815-12-10', '1906-12-09', '1912-06-23']);
  });

  it('is a real date column on PostgreSQL and TEXT on SQLite', async () => {
    const db = server.app.basalt.db;
    const { rows } =
      db.dialect.name === 'postgres'
        ? await sql<{ t: string }>`SELECT data_type AS t FROM information_schema.columns
            WHERE table_name = ${`t_${tableId}`} AND column_name = 'born'`.execute(db.kysely)
        : await sql<{
            t: string;
          }>`SELECT type AS t FROM pragma_table_info(${`t_${tableId}`}) WHERE name = 'born'`.execute(db.kysely);
    expect(rows[0]?.t.toLowerCase()).toBe(dialect === 'postgres' ? 'date' : 'text');
  });

  it('refuses what is not a date with each family`s error shape', async () => {
    for (const born of ['1815-02-30', 'soon', 18151210, true, '1815-12-10\u0000']) {
      const api = await server.request('POST', `/api/tables/${tableId}/records`, {
        headers: alice.headers,
        json: { who: 'x', born },
      });
      expect(api.status, api.text).toBe(400);
      // NUL is refused before the column's own check, with its own message.
      expect(JSON.stringify(api.body)).toMatch(typeof born === 'string' && born.includes('\0') ? /NUL/ : /YYYY-MM-DD/);
      const viaRest = await server.request('POST', '/rest/v1/birthdays', { headers: rest, json: { who: 'x', born } });
      expect(viaRest.status, viaRest.text).toBe(400);
      expect(viaRest.body).toHaveProperty('code');
    }
    const filter = await server.request('GET', '/rest/v1/birthdays?born=eq.soon', { headers: rest });
    expect(filter.status).toBe(400);
    expect(filter.body).toMatchObject({ code: '22P02', message: 'invalid input syntax for type date: "soon"' });
  });

  it('converts a timestamp column to dates (its UTC day) and back', async () => {
    const res = await server.request('PATCH', `/api/tables/${tableId}`, {
      headers: alice.headers,
      json: { schema: { who: { type: 'text' }, born: { type: 'date_only' }, at: { type: 'date_only' } } },
    });
    expect(res.status, res.text).toBe(200);
    const read = await server.request('GET', '/rest/v1/birthdays?select=at&who=eq.Ada', { headers: rest });
    expect(read.body).toEqual([{ at: '2025-05-01' }]);
    const back = await server.request('PATCH', `/api/tables/${tableId}`, {
      headers: alice.headers,
      json: { schema: { who: { type: 'text' }, born: { type: 'date_only' }, at: { type: 'date' } } },
    });
    expect(back.status, back.text).toBe(200);
    const again = await server.request('GET', '/rest/v1/birthdays?select=at&who=eq.Ada', { headers: rest });
    expect(again.body).toEqual([{ at: '2025-05-01T00:00:00.000Z' }]);
  });
});

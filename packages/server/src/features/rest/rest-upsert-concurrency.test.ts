import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestTable, type RestUser, signUpRestUser, startRestServer } from '../../testing/rest.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// Upserts of one new row that arrive together: whichever engine runs them, exactly one creates the record and
// every other one merges into it, so the answers are one 201 and the rest 200, history holds one
// RECORD_CREATE and a chain of RECORD_UPDATEs each starting from the state the one before left, and the
// table can be restored to any of those changes.

const PARALLEL = 20;

interface Change {
  id: number;
  changeType: string;
  recordId: number | null;
  previousState: Record<string, unknown> | null;
  newState: Record<string, unknown> | null;
}

describe.each(testDialects)('concurrent upserts of one new row on %s', (dialect) => {
  let server: TestServer;
  let alice: RestUser;
  let n = 0;

  beforeAll(async () => {
    server = await startRestServer(dialect);
    alice = await signUpRestUser(server);
  });
  afterAll(() => server.close());

  const freshTable = async () => {
    const name = `race_${++n}`;
    const { id } = await createRestTable(alice, name, {
      code: { type: 'text', unique: true },
      title: { type: 'text' },
    });
    // Every connection of the pool open before the race, so that the upserts start together.
    await Promise.all(
      Array.from({ length: PARALLEL }, () => server.request('GET', `/rest/v1/${name}`, { headers: alice.headers })),
    );
    return { name, id };
  };

  const historyOf = async (tableId: number): Promise<Change[]> => {
    const res = await server.request('GET', `/api/history?tableId=${tableId}&limit=100`, { headers: alice.headers });
    expect(res.status).toBe(200);
    return (res.body.data as Change[]).filter((c) => c.recordId !== null).sort((a, b) => a.id - b.id);
  };

  it.each([
    ['on a unique column', '?on_conflict=code', (i: number) => ({ code: 'k', title: `v${i}` })],
    ['on id', '', (i: number) => ({ id: 77, code: null, title: `v${i}` })],
    ['on id and a unique column', '?on_conflict=id,code', (i: number) => ({ id: 78, code: 'k', title: `v${i}` })],
  ])('merge-duplicates %s: one 201 and one RECORD_CREATE, then updates in a chain', async (_name, query, row) => {
    const table = await freshTable();
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        server.request('POST', `/rest/v1/${table.name}${query}`, {
          headers: { ...alice.headers, prefer: 'resolution=merge-duplicates' },
          json: row(i),
        }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, ...Array(PARALLEL - 1).fill(200)].sort());

    const changes = await historyOf(table.id);
    expect(changes.map((c) => c.changeType)).toEqual(['RECORD_CREATE', ...Array(PARALLEL - 1).fill('RECORD_UPDATE')]);
    expect(new Set(changes.map((c) => c.recordId)).size).toBe(1);
    changes.forEach((change, i) => {
      expect(change.previousState).toEqual(i === 0 ? null : changes[i - 1]?.newState);
    });

    const rows = await server.request('GET', `/rest/v1/${table.name}?select=title`, { headers: alice.headers });
    expect(rows.body).toEqual([{ title: changes.at(-1)?.newState?.title }]);

    const [created] = changes;
    const restore = await server.request('POST', `/api/history/${created?.id}/restore`, { headers: alice.headers });
    expect({ status: restore.status, message: restore.body?.message }).toMatchObject({ status: 200 });
    const restored = await server.request('GET', `/rest/v1/${table.name}?select=title`, { headers: alice.headers });
    expect(restored.body).toEqual([{ title: created?.newState?.title }]);
  });

  it('bulk merges of stored and new keys: each record created once, each update starting where the last ended', async () => {
    const table = await freshTable();
    const seeded = await server.request('POST', `/rest/v1/${table.name}`, {
      headers: alice.headers,
      json: { code: 'a', title: 'seed' },
    });
    expect(seeded.status).toBe(201);
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        server.request('POST', `/rest/v1/${table.name}?on_conflict=code`, {
          headers: { ...alice.headers, prefer: 'resolution=merge-duplicates' },
          json: ['a', 'b', 'c'].map((code) => ({ code, title: `${code}${i}` })),
        }),
      ),
    );
    expect(answers.filter((a) => a.status >= 300)).toEqual([]);
    const byRecord = new Map<number | null, Change[]>();
    for (const change of await historyOf(table.id)) {
      byRecord.set(change.recordId, [...(byRecord.get(change.recordId) ?? []), change]);
    }
    expect([...byRecord.values()].map((changes) => changes.length)).toEqual([PARALLEL + 1, PARALLEL, PARALLEL]);
    for (const changes of byRecord.values()) {
      expect(changes.map((c) => c.changeType)).toEqual([
        'RECORD_CREATE',
        ...Array(changes.length - 1).fill('RECORD_UPDATE'),
      ]);
      changes.forEach((change, i) => {
        expect(change.previousState).toEqual(i === 0 ? null : changes[i - 1]?.newState);
      });
    }
  });

  it('ignore-duplicates: one RECORD_CREATE, nothing else recorded, and 201 for every answer', async () => {
    const table = await freshTable();
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        server.request('POST', `/rest/v1/${table.name}?on_conflict=code`, {
          headers: { ...alice.headers, prefer: 'resolution=ignore-duplicates,return=representation' },
          json: { code: 'k', title: `v${i}` },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(PARALLEL).fill(201));
    expect(answers.map((a) => a.body.length).sort()).toEqual([...Array(PARALLEL - 1).fill(0), 1]);
    const changes = await historyOf(table.id);
    expect(changes.map((c) => c.changeType)).toEqual(['RECORD_CREATE']);
  });
});

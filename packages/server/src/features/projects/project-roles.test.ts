import { PROJECT_ROLES, type ProjectRole } from '@basalt/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMemberAs,
  createProjectAs,
  createTableAs,
  linkTableAs,
  type Member,
  signInMember,
} from '../../testing/projects.fixtures.js';
import { startTestServer, type TestResponse, type TestServer, testDialects } from '../../testing/test-server.js';

// The role matrix over every route a linked table is reachable by: alice owns the table and the
// project; a member of each role, and an outsider, try each route. A role the matrix allows succeeds; a member
// whose role may not gets 403 naming the role, and the table is unchanged; the outsider meets 404.

type Need = 'read' | 'write' | 'schema';

const ALLOWED: Record<Need, readonly ProjectRole[]> = {
  read: PROJECT_ROLES,
  write: ['OWNER', 'ADMIN', 'DEVELOPER', 'EDITOR'],
  schema: ['OWNER', 'ADMIN', 'DEVELOPER'],
};

describe.each(testDialects)('project roles on linked tables (%s)', (dialect) => {
  let server: TestServer;
  let alice: Member;
  const members = {} as Record<ProjectRole, Member>;
  let outsider: Member;
  let projectId: string;
  let tableId: number;

  const as = (who: Member, method: string, url: string, json?: unknown) =>
    server.request(method, url, { headers: who.headers, ...(json === undefined ? {} : { json }) });

  async function newRecord(title = 'row'): Promise<number> {
    const res = await as(alice, 'POST', `/api/tables/${tableId}/records`, { title });
    expect(res.status, res.text).toBe(201);
    return res.body.id;
  }

  async function latestChangeId(): Promise<number> {
    const res = await as(alice, 'GET', `/api/history?tableId=${tableId}&limit=1`);
    return res.body.data[0].id;
  }

  async function snapshot() {
    const records = await as(alice, 'GET', `/api/tables/${tableId}/records?limit=1000`);
    const table = await as(alice, 'GET', `/api/tables/${tableId}`);
    return { records: records.body.data, table: table.body };
  }

  beforeAll(async () => {
    server = await startTestServer(dialect);
    alice = await signInMember(server, 'alice');
    outsider = await signInMember(server, 'mallory');
    projectId = await createProjectAs(server, alice);
    for (const role of PROJECT_ROLES) {
      members[role] = await signInMember(server, `member_${role.toLowerCase()}`);
      await addMemberAs(server, alice, projectId, members[role], role);
    }
    tableId = await createTableAs(server, alice, 'orders');
    await linkTableAs(server, alice, projectId, tableId);
  });

  afterAll(async () => {
    await server?.close();
  });

  // Each row: what it needs, the request (after its own setup), and the status of a success.
  const routes: Array<{ name: string; need: Need; ok: number; send: (who: Member) => Promise<TestResponse> }> = [
    { name: 'GET table', need: 'read', ok: 200, send: (who) => as(who, 'GET', `/api/tables/${tableId}`) },
    { name: 'GET records', need: 'read', ok: 200, send: (who) => as(who, 'GET', `/api/tables/${tableId}/records`) },
    {
      name: 'GET record',
      need: 'read',
      ok: 200,
      send: async (who) => as(who, 'GET', `/api/tables/${tableId}/records/${await newRecord()}`),
    },
    {
      name: 'POST record',
      need: 'write',
      ok: 201,
      send: (who) => as(who, 'POST', `/api/tables/${tableId}/records`, { title: 'new' }),
    },
    {
      name: 'PATCH record',
      need: 'write',
      ok: 200,
      send: async (who) => as(who, 'PATCH', `/api/tables/${tableId}/records/${await newRecord()}`, { title: 'x' }),
    },
    {
      name: 'DELETE record',
      need: 'write',
      ok: 200,
      send: async (who) => as(who, 'DELETE', `/api/tables/${tableId}/records/${await newRecord()}`),
    },
    {
      name: 'PATCH table',
      need: 'schema',
      ok: 200,
      send: (who) => as(who, 'PATCH', `/api/tables/${tableId}`, { description: `by ${who.username}` }),
    },
    {
      name: 'PUT schema',
      need: 'schema',
      ok: 200,
      send: async (who) => {
        const current = (await as(alice, 'GET', `/api/tables/${tableId}`)).body.schema;
        const column = `c_${who.username}`;
        return as(who, 'PUT', `/api/tables/${tableId}/schema`, {
          schema: { ...current, [column]: { type: 'text', required: false, unique: false } },
        });
      },
    },
    {
      name: 'preview schema',
      need: 'schema',
      ok: 200,
      send: async (who) => {
        const current = (await as(alice, 'GET', `/api/tables/${tableId}`)).body.schema;
        return as(who, 'POST', `/api/tables/${tableId}/schema/preview`, { schema: current });
      },
    },
    {
      name: 'revert a record change',
      need: 'write',
      ok: 200,
      send: async (who) => {
        await newRecord();
        return as(who, 'POST', `/api/history/${await latestChangeId()}/revert`);
      },
    },
    {
      name: 'restore a version',
      need: 'schema',
      ok: 200,
      send: async (who) => as(who, 'POST', `/api/history/${await latestChangeId()}/restore`),
    },
    {
      name: 'create a checkpoint',
      need: 'write',
      ok: 201,
      send: (who) => as(who, 'POST', '/api/checkpoints', { tableId, name: `cp ${who.username}` }),
    },
    {
      name: 'restore a checkpoint',
      need: 'schema',
      ok: 200,
      send: async (who) => {
        const made = await as(alice, 'POST', '/api/checkpoints', { tableId, name: 'base' });
        return as(who, 'POST', `/api/checkpoints/${made.body.id}/restore`);
      },
    },
    {
      name: 'read the layout',
      need: 'read',
      ok: 404,
      send: (who) => as(who, 'GET', `/api/projects/${projectId}/schema`),
    },
  ];

  for (const route of routes) {
    for (const role of [...PROJECT_ROLES, 'outsider'] as const) {
      const allowed = role !== 'outsider' && ALLOWED[route.need].includes(role);
      const expected = allowed ? route.ok : role === 'outsider' ? 404 : 403;
      it(`${route.name} as ${role} → ${expected}`, async () => {
        const who = role === 'outsider' ? outsider : members[role];
        const before = await snapshot();
        const res = await route.send(who);
        expect(res.status, res.text).toBe(expected);
        if (expected === 403) {
          expect(res.body.message).toContain(`(${role})`);
          expect(res.body.code).toBe('role_forbidden');
        }
        if (!allowed) {
          // A refusal changes nothing (setup rows are the test's own: compare what existed before).
          const after = await snapshot();
          expect(after.table).toEqual(before.table);
          for (const record of before.records) expect(after.records).toContainEqual(record);
        }
      });
    }
  }

  it('lists history and checkpoints of the shared table to every member, nothing to an outsider', async () => {
    for (const role of PROJECT_ROLES) {
      const history = await as(members[role], 'GET', `/api/history?tableId=${tableId}`);
      expect(history.status).toBe(200);
      expect(history.body.data.length).toBeGreaterThan(0);
      const checkpoints = await as(members[role], 'GET', `/api/checkpoints?tableId=${tableId}`);
      expect(checkpoints.body.length).toBeGreaterThan(0);
    }
    expect((await as(outsider, 'GET', `/api/history?tableId=${tableId}`)).body.data).toEqual([]);
    expect((await as(outsider, 'GET', `/api/checkpoints?tableId=${tableId}`)).body).toEqual([]);
  });

  it('names the member who acted in history and activity', async () => {
    const editor = members.EDITOR;
    const created = await as(editor, 'POST', `/api/tables/${tableId}/records`, { title: 'by the editor' });
    expect(created.status).toBe(201);
    const history = await as(alice, 'GET', `/api/history?tableId=${tableId}&limit=1`);
    expect(history.body.data[0]).toMatchObject({ changeType: 'RECORD_CREATE', userId: editor.accountId });
    const activity = await as(alice, 'GET', '/api/activity?page=1&limit=1');
    expect(activity.body.data[0].details).toMatchObject({ tableName: 'orders', actorId: editor.accountId });
  });

  it('stops sharing when the table is unlinked or the member removed', async () => {
    const viewer = members.VIEWER;
    const other = await createTableAs(server, alice, 'secrets_table');
    expect((await as(viewer, 'GET', `/api/tables/${other}/records`)).status).toBe(404);
    await linkTableAs(server, alice, projectId, other);
    expect((await as(viewer, 'GET', `/api/tables/${other}/records`)).status).toBe(200);
    expect((await as(viewer, 'DELETE', `/api/projects/${projectId}/tables/${other}`)).status).toBe(403);
    expect((await as(alice, 'DELETE', `/api/projects/${projectId}/tables/${other}`)).status).toBe(200);
    expect((await as(viewer, 'GET', `/api/tables/${other}/records`)).status).toBe(404);
    expect((await as(viewer, 'GET', `/api/tables/${other}`)).status).toBe(404);
  });

  it('lets DEVELOPER and up delete a shared table, not EDITOR (403) or an outsider (404)', async () => {
    const doomed = await createTableAs(server, alice, 'doomed');
    await linkTableAs(server, alice, projectId, doomed);
    expect((await as(members.EDITOR, 'DELETE', `/api/tables/${doomed}`)).status).toBe(403);
    expect((await as(outsider, 'DELETE', `/api/tables/${doomed}`)).status).toBe(404);
    expect((await as(alice, 'GET', `/api/tables/${doomed}`)).status).toBe(200);
    const deleted = await as(members.DEVELOPER, 'DELETE', `/api/tables/${doomed}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect((await as(alice, 'GET', `/api/tables/${doomed}`)).status).toBe(404);
  });

  it('never lets a member reach the owner’s other tables through the shared one', async () => {
    const privateTable = await createTableAs(server, alice, 'private_notes');
    for (const role of PROJECT_ROLES) {
      const who = members[role];
      expect((await as(who, 'GET', `/api/tables/${privateTable}`)).status).toBe(404);
      expect((await as(who, 'GET', `/api/tables/${privateTable}/records`)).status).toBe(404);
      expect((await as(who, 'GET', '/api/tables')).body.map((t: { id: number }) => t.id)).not.toContain(privateTable);
      expect((await as(who, 'POST', '/api/checkpoints', { tableId: privateTable, name: 'x' })).status).toBe(404);
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from '../../testing/auth.fixtures.js';
import { badProjectRequests } from '../../testing/project-requests.fixtures.js';
import {
  addMemberAs,
  createProjectAs,
  createTableAs,
  linkTableAs,
  type Member,
  signInMember,
} from '../../testing/projects.fixtures.js';
import { tableElement } from '../../testing/room.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';

// The project calls for what a person does with them and for bad input:
// missing and malformed fields, wrong types, NUL, oversized layouts, unknown and foreign ids, roles that may
// not, missing or wrong credentials. Never a 500, and a 4xx changes nothing.

const _UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe.each(testDialects)('projects API (%s)', (dialect) => {
  let server: TestServer;
  let alice: Member;
  let bob: Member;
  let carol: Member;
  let projectId: string;
  let foreignProject: string;

  const _as = (who: Member) => () => who.headers;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    alice = await signInMember(server, 'alice');
    bob = await signInMember(server, 'bob');
    carol = await signInMember(server, 'carol');
    projectId = await createProjectAs(server, alice, 'Alpha team');
    foreignProject = await createProjectAs(server, carol, 'Carol only');
    await addMemberAs(server, alice, projectId, bob, 'EDITOR');
  });

  afterAll(async () => {
    await server?.close();
  });

  it('creates a project with the caller as OWNER, and lists only the caller’s projects', async () => {
    const created = await server.request('POST', '/api/projects', {
      headers: alice.headers,
      json: { name: '  Beta  ', description: 'Second' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Beta',
      description: 'Second',
      ownerId: alice.accountId,
      role: 'OWNER',
      isActive: true,
      icon: null,
      color: null,
    });
    const list = await server.request('GET', '/api/projects', { headers: alice.headers });
    expect(list.body.map((p: { name: string }) => p.name)).toEqual(['Beta', 'Alpha team']);
    const bobs = await server.request('GET', '/api/projects', { headers: bob.headers });
    expect(bobs.body).toEqual([expect.objectContaining({ id: projectId, role: 'EDITOR' })]);
  });

  it('answers bad input, unknown ids and refused roles with 4xx and changes nothing', async () => {
    const before = await snapshot();
    for (const scenario of badProjectRequests({ alice, bob, carol, projectId, foreignProject })) {
      const res = await runScenario(server, scenario).catch((error: Error) => {
        throw new Error(`${scenario.name}: ${error.message}`);
      });
      expect(res.status, scenario.name).toBeLessThan(500);
    }
    expect(await snapshot()).toEqual(before);
  });

  async function snapshot() {
    const get = async (url: string) => (await server.request('GET', url, { headers: alice.headers })).body;
    return {
      projects: await get('/api/projects'),
      members: await get(`/api/projects/${projectId}/members`),
      tables: await get(`/api/projects/${projectId}/tables`),
      layout: await get(`/api/projects/${projectId}/schema`),
    };
  }

  it('saves and reads a layout; GET is 404 until one is saved', async () => {
    const fresh = await createProjectAs(server, alice, 'Layouts');
    const missing = await server.request('GET', `/api/projects/${fresh}/schema`, { headers: alice.headers });
    expect(missing.status).toBe(404);
    const saved = await server.request('POST', `/api/projects/${fresh}/schema`, {
      headers: alice.headers,
      json: { layout: { elements: [tableElement('users')], version: 0, lastModified: null } },
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.layout).toMatchObject({ version: 1, elements: [tableElement('users')] });
    expect(saved.body.layout.lastModified).toEqual(expect.any(String));
    // A second save based on version 0 (an editor that never heard of version 1) keeps both tables.
    const again = await server.request('POST', `/api/projects/${fresh}/schema`, {
      headers: alice.headers,
      json: { layout: { elements: [tableElement('posts')], version: 0 } },
    });
    expect(again.body.layout.elements.map((e: { id: string }) => e.id)).toEqual(['users', 'posts']);
    const read = await server.request('GET', `/api/projects/${fresh}/schema`, { headers: alice.headers });
    expect(read.body.layout.version).toBe(2);
  });

  it('manages members: invite by username with VIEWER by default, change roles, ADMIN limits, leave', async () => {
    const team = await createProjectAs(server, alice, 'Members');
    const invited = await server.request('POST', `/api/projects/${team}/members`, {
      headers: alice.headers,
      json: { username: 'Carol' },
    });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({ accountId: carol.accountId, role: 'VIEWER', invitedBy: alice.accountId });
    await addMemberAs(server, alice, team, bob, 'ADMIN');
    // An ADMIN manages up to ADMIN: not granting OWNER, not touching the OWNER.
    const grantOwner = await server.request('PATCH', `/api/projects/${team}/members/${carol.accountId}`, {
      headers: bob.headers,
      json: { role: 'OWNER' },
    });
    expect(grantOwner.status).toBe(403);
    expect(grantOwner.body.message).toContain('(ADMIN)');
    const demoteOwner = await server.request('PATCH', `/api/projects/${team}/members/${alice.accountId}`, {
      headers: bob.headers,
      json: { role: 'VIEWER' },
    });
    expect(demoteOwner.status).toBe(403);
    const promote = await server.request('PATCH', `/api/projects/${team}/members/${carol.accountId}`, {
      headers: bob.headers,
      json: { role: 'DEVELOPER' },
    });
    expect(promote.body.role).toBe('DEVELOPER');
    const leave = await server.request('DELETE', `/api/projects/${team}/members/${carol.accountId}`, {
      headers: carol.headers,
    });
    expect(leave.status).toBe(200);
    expect((await server.request('GET', `/api/projects/${team}`, { headers: carol.headers })).status).toBe(404);
    // Transfer: bob becomes OWNER, alice stays as ADMIN; then alice may leave.
    const transfer = await server.request('POST', `/api/projects/${team}/transfer`, {
      headers: alice.headers,
      json: { accountId: bob.accountId },
    });
    expect(transfer.status, transfer.text).toBe(200);
    const members = await server.request('GET', `/api/projects/${team}/members`, { headers: bob.headers });
    expect(members.body.map((m: { username: string; role: string }) => `${m.username}:${m.role}`)).toEqual([
      'alice:ADMIN',
      'bob:OWNER',
    ]);
    expect((await server.request('DELETE', `/api/projects/${team}`, { headers: alice.headers })).status).toBe(403);
    expect((await server.request('DELETE', `/api/projects/${team}`, { headers: bob.headers })).status).toBe(200);
    expect((await server.request('GET', `/api/projects/${team}`, { headers: bob.headers })).status).toBe(404);
  });

  it('links tables, lists them with their owner, and lists shared tables with the project’s name', async () => {
    const tableId = await createTableAs(server, alice, 'invoices');
    await linkTableAs(server, alice, projectId, tableId);
    await linkTableAs(server, alice, projectId, tableId);
    const linked = await server.request('GET', `/api/projects/${projectId}/tables`, { headers: bob.headers });
    expect(linked.body).toEqual([
      expect.objectContaining({ id: tableId, name: 'invoices', ownerId: alice.accountId, ownerName: 'alice' }),
    ]);
    const shared = await server.request('GET', '/api/shared-tables', { headers: bob.headers });
    expect(shared.body).toEqual([
      expect.objectContaining({ id: tableId, projectId, projectName: 'Alpha team', role: 'EDITOR' }),
    ]);
    expect((await server.request('GET', '/api/shared-tables', { headers: alice.headers })).body).toEqual([]);
    // Bob cannot link Alice's table anywhere, nor his own into a project where he is EDITOR.
    const bobsTable = await createTableAs(server, bob, 'bobs_table');
    const refused = await server.request('POST', `/api/projects/${projectId}/tables/${bobsTable}`, {
      headers: bob.headers,
    });
    expect(refused.status).toBe(403);
    const own = await createProjectAs(server, bob, 'Bob space');
    const foreign = await server.request('POST', `/api/projects/${own}/tables/${tableId}`, { headers: bob.headers });
    expect(foreign.status).toBe(404);
  });
});

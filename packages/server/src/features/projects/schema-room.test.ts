import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginWithCookie } from '../../testing/auth.fixtures.js';
import { addMemberAs, createProjectAs, type Member, signInMember } from '../../testing/projects.fixtures.js';
import { openRoomClient, type RoomClient, tableElement, upgradeStatus } from '../../testing/room.fixtures.js';
import { startTestServer, type TestServer, testDialects } from '../../testing/test-server.js';

// The Schema Editor's room on /ws: who may connect and join, the
// spec's messages, the merge of concurrent updates, presence, and bad frames (an error, the socket stays usable).

describe.each(testDialects)('/ws schema room (%s)', (dialect) => {
  let server: TestServer;
  let alice: Member;
  let bob: Member;
  let viewer: Member;
  let outsider: Member;
  let projectId: string;
  const open: RoomClient[] = [];

  const connect = async (who: Member) => {
    const client = await openRoomClient(server.url, { token: who.token });
    open.push(client);
    return client;
  };
  const joined = async (who: Member) => {
    const client = await connect(who);
    client.send({ type: 'join_schema_room', projectId, userId: 'ignored' });
    const init = await client.next((m) => m.type === 'schema_layout_init');
    return { client, init };
  };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    alice = await signInMember(server, 'alice');
    bob = await signInMember(server, 'bob');
    viewer = await signInMember(server, 'victor');
    outsider = await signInMember(server, 'mallory');
    projectId = await createProjectAs(server, alice);
    await addMemberAs(server, alice, projectId, bob, 'DEVELOPER');
    await addMemberAs(server, alice, projectId, viewer, 'VIEWER');
  });

  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
    await server?.close();
  });

  it('refuses the upgrade without valid credentials (401), and with an API key (403)', async () => {
    expect(await upgradeStatus(server.url)).toBe(401);
    expect(await upgradeStatus(server.url, '?access_token=not-a-token')).toBe(401);
    expect(await upgradeStatus(server.url, '?userId=someone')).toBe(401);
    const key = await server.request('POST', '/api/keys', { headers: alice.headers, json: { name: 'k' } });
    expect(await upgradeStatus(server.url, `?access_token=${key.body.key}`)).toBe(403);
  });

  it('accepts the console’s session cookie from its own origin only', async () => {
    const signUp = await server.request('POST', '/api/auth/register', {
      json: { username: 'cookie_user', email: 'cookie@example.com', password: 'Cookie-Passw0rd!' },
    });
    expect(signUp.status, signUp.text).toBeLessThan(300);
    const cookie = await loginWithCookie(server, {
      username: 'cookie_user',
      email: 'cookie@example.com',
      password: 'Cookie-Passw0rd!',
    });
    const host = new URL(server.url).host;
    expect(await upgradeStatus(server.url, '', { cookie: cookie.cookie, origin: server.url, host })).toBe(101);
    expect(await upgradeStatus(server.url, '', { cookie: cookie.cookie, origin: 'https://evil.example' })).toBe(403);
  });

  it('joins as a member: schema_layout_init with the blank layout and the role; outsiders are refused', async () => {
    const { init } = await joined(alice);
    expect(init).toMatchObject({
      projectId,
      role: 'OWNER',
      self: alice.accountId,
      layout: { elements: [], version: 0 },
    });
    const stranger = await connect(outsider);
    stranger.send({ type: 'join_schema_room', projectId, userId: alice.accountId });
    expect(await stranger.next((m) => m.type === 'error')).toMatchObject({ code: 'not_a_member' });
    stranger.send({ type: 'join_schema_room', projectId: '00000000-0000-4000-8000-000000000000' });
    expect(await stranger.next((m) => m.type === 'error')).toMatchObject({ code: 'not_a_member' });
  });

  it('broadcasts an update to the others, answers the sender with the merged layout, and keeps it', async () => {
    const a = await joined(alice);
    const b = await joined(bob);
    const base = Math.max(a.init.layout.version, b.init.layout.version);
    const sentAt = Date.now();
    a.client.send({
      type: 'schema_layout_update',
      projectId,
      userId: 'forged',
      layout: { elements: [tableElement('t1', 10)], version: base },
      save: true,
      timestamp: sentAt,
    });
    const saved = await a.client.next((m) => m.type === 'schema_layout_saved');
    expect(saved.layout.elements.map((e: { id: string }) => e.id)).toContain('t1');
    const heard = await b.client.next((m) => m.type === 'schema_layout_update');
    expect(heard).toMatchObject({ userId: alice.accountId, timestamp: sentAt, layout: { version: saved.version } });
    const http = await server.request('GET', `/api/projects/${projectId}/schema`, { headers: bob.headers });
    expect(http.body.layout).toMatchObject({ version: saved.version });
  });

  it('takes an ISO 8601 timestamp as well as a number, passes it on as sent, and refuses any other', async () => {
    const a = await joined(alice);
    const b = await joined(bob);
    const sentAt = new Date().toISOString();
    a.client.send({
      type: 'schema_layout_update',
      projectId,
      layout: { elements: [tableElement('iso', 20)], version: Math.max(a.init.layout.version, b.init.layout.version) },
      timestamp: sentAt,
    });
    const heard = await b.client.next((m) => m.type === 'schema_layout_update');
    expect(heard).toMatchObject({ userId: alice.accountId, timestamp: sentAt });
    for (const timestamp of ['yesterday', '2026-13-45T00:00:00Z', true, { at: 1 }, Number.MAX_VALUE * 10]) {
      a.client.sendRaw(
        JSON.stringify({ type: 'schema_layout_update', projectId, layout: { elements: [] }, timestamp }).replace(
          'null',
          '1e999',
        ),
      );
      const refused = await a.client.next((m) => m.type === 'error');
      expect(refused.message, String(timestamp)).toContain('timestamp must be a number or an ISO 8601 date-time');
    }
  });

  it('merges two editors’ concurrent edits of different fields of one table, and a delete beats a move', async () => {
    const a = await joined(alice);
    const b = await joined(bob);
    const layout = a.init.layout;
    const t = tableElement('shared', 0);
    a.client.send({
      type: 'schema_layout_update',
      projectId,
      layout: { elements: [...layout.elements, t], version: layout.version },
    });
    const v1 = (await a.client.next((m) => m.type === 'schema_layout_saved')).layout;
    const renamed = { ...t, fields: [{ ...t.fields[0], name: 'key' }, t.fields[1]] };
    const retyped = { ...t, fields: [t.fields[0], { ...t.fields[1], type: 'text' }] };
    const others = v1.elements.filter((e: { id: string }) => e.id !== 'shared');
    a.client.send({
      type: 'schema_layout_update',
      projectId,
      layout: { elements: [...others, renamed], version: v1.version },
    });
    b.client.send({
      type: 'schema_layout_update',
      projectId,
      layout: { elements: [...others, retyped], version: v1.version },
    });
    await a.client.next((m) => m.type === 'schema_layout_saved');
    await b.client.next((m) => m.type === 'schema_layout_saved');
    const now = (await server.request('GET', `/api/projects/${projectId}/schema`, { headers: alice.headers })).body
      .layout;
    const shared = now.elements.find((e: { id: string }) => e.id === 'shared');
    expect(shared.fields.map((f: { name: string; type: string }) => `${f.name}:${f.type}`)).toEqual([
      'key:integer',
      'name:text',
    ]);
    // Bob deletes it while Alice, not having heard, moves it.
    const without = now.elements.filter((e: { id: string }) => e.id !== 'shared');
    b.client.send({ type: 'schema_layout_update', projectId, layout: { elements: without, version: now.version } });
    await b.client.next((m) => m.type === 'schema_layout_saved');
    const moved = now.elements.map((e: { id: string }) =>
      e.id === 'shared' ? { ...e, position: { x: 999, y: 9 } } : e,
    );
    a.client.send({ type: 'schema_layout_update', projectId, layout: { elements: moved, version: now.version } });
    const last = await a.client.next((m) => m.type === 'schema_layout_saved');
    expect(last.layout.elements.map((e: { id: string }) => e.id)).not.toContain('shared');
  });

  it('lets a VIEWER receive updates but not send them', async () => {
    const v = await joined(viewer);
    expect(v.init.role).toBe('VIEWER');
    v.client.send({
      type: 'schema_layout_update',
      projectId,
      layout: { elements: [], version: v.init.layout.version },
    });
    const refused = await v.client.next((m) => m.type === 'error');
    expect(refused).toMatchObject({ code: 'role_forbidden' });
    expect(refused.message).toContain('(VIEWER)');
    const a = await joined(alice);
    a.client.send({
      type: 'schema_layout_update',
      projectId,
      layout: { elements: [...a.init.layout.elements, tableElement('for-viewer')], version: a.init.layout.version },
    });
    const heard = await v.client.next((m) => m.type === 'schema_layout_update');
    expect(heard.layout.elements.map((e: { id: string }) => e.id)).toContain('for-viewer');
  });

  it('answers malformed frames with an error and stays usable', async () => {
    const { client, init } = await joined(alice);
    const bad: Array<[string, string]> = [
      ['not json', 'invalid_message'],
      ['[]', 'invalid_message'],
      [JSON.stringify({ type: 'teleport' }), 'invalid_message'],
      [JSON.stringify({ type: 'join_schema_room' }), 'invalid_message'],
      [JSON.stringify({ type: 'schema_layout_update', projectId, layout: { elements: 'x' } }), 'invalid_layout'],
      [
        JSON.stringify({
          type: 'schema_layout_update',
          projectId,
          layout: { elements: [{ id: 'a', type: 'table', fields: [] }] },
        }),
        'invalid_layout',
      ],
      [
        JSON.stringify({
          type: 'schema_layout_update',
          projectId,
          layout: { elements: [{ ...tableElement('n'), name: 'a\u0000b' }] },
        }),
        'invalid_layout',
      ],
      [
        JSON.stringify({
          type: 'schema_layout_update',
          projectId,
          layout: {
            elements: [{ ...tableElement('big'), name: 'x'.repeat(100), fields: [] }],
            pad: 'y'.repeat(600_000),
          },
        }),
        'layout_too_large',
      ],
      [JSON.stringify({ type: 'schema_layout_update', projectId: 'other', layout: { elements: [] } }), 'not_in_room'],
    ];
    for (const [frame, code] of bad) {
      client.sendRaw(frame);
      const error = await client.next((m) => m.type === 'error');
      expect(error.code, frame.slice(0, 80)).toBe(code);
    }
    const nameless = await (async () => {
      client.send({
        type: 'schema_layout_update',
        projectId,
        layout: { elements: [{ id: 'a', type: 'table', fields: [] }] },
      });
      return client.next((m) => m.type === 'error');
    })();
    expect(nameless.message).toMatch(/^layout\.elements\.0\.name: /);
    client.send({
      type: 'schema_layout_update',
      projectId,
      layout: { elements: [tableElement('after-errors')], version: init.layout.version },
    });
    const saved = await client.next((m) => m.type === 'schema_layout_saved');
    expect(saved.layout.elements.map((e: { id: string }) => e.id)).toContain('after-errors');
  });

  it('shows who is in the room, with initials, colours and selections', async () => {
    const a = await joined(alice);
    await joined(bob);
    a.client.send({ type: 'schema_selection', projectId, elementIds: ['t1'] });
    const presence = await a.client.next(
      (m) =>
        m.type === 'schema_presence' &&
        m.users.some(
          (u: { accountId: string; selection: string[] }) =>
            u.accountId === alice.accountId && u.selection.includes('t1'),
        ),
    );
    const names = presence.users.map((u: { name: string; initials: string; color: string }) => [u.name, u.initials]);
    expect(names).toEqual(
      expect.arrayContaining([
        ['alice', 'AL'],
        ['bob', 'BO'],
      ]),
    );
    expect(presence.users.every((u: { color: string }) => /^#[0-9a-f]{6}$/.test(u.color))).toBe(true);
  });

  it('puts a removed member out of the room', async () => {
    const carol = await signInMember(server, 'carol');
    await addMemberAs(server, alice, projectId, carol, 'EDITOR');
    const c = await joined(carol);
    const removed = await server.request('DELETE', `/api/projects/${projectId}/members/${carol.accountId}`, {
      headers: alice.headers,
    });
    expect(removed.status).toBe(200);
    expect(await c.client.next((m) => m.type === 'error')).toMatchObject({ code: 'removed' });
  });
});

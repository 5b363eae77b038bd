import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMemberAs, createProjectAs, type Member, signInMember } from '../../testing/projects.fixtures.js';
import { openRoomClient, type RoomClient, tableElement } from '../../testing/room.fixtures.js';
import { type ServerProcess, startServerProcess } from '../../testing/server-process.js';
import { createTestDatabase, startTestServer, type TestServer } from '../../testing/test-server.js';

// One Schema Editor room across two nodes on one PostgreSQL: node A is a `basalt serve` process of its
// own, node B a server in this process. An editor on each sees the other's updates and presence; both nodes'
// concurrent updates merge without loss; a node that restarts hands its reconnecting editors the current layout.

describe.skipIf(!process.env.TEST_DATABASE_URL)('/ws schema room on two nodes', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let a: ServerProcess;
  let b: TestServer;
  let alice: Member;
  let bob: Member;
  let projectId: string;
  const open: RoomClient[] = [];
  // Tokens name their issuer, the site: nodes of one deployment share it, so a token from B works on A.
  const siteUrl = 'http://basalt.cluster.test';

  async function join(url: string, who: Member) {
    const client = await openRoomClient(url, { token: who.token });
    open.push(client);
    client.send({ type: 'join_schema_room', projectId });
    const init = await client.next((m) => m.type === 'schema_layout_init');
    return { client, init };
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    b = await startTestServer('postgres', { databaseUrl: database.url, siteUrl });
    a = await startServerProcess({ DATABASE_URL: database.url, SITE_URL: siteUrl });
    alice = await signInMember(b, 'alice');
    bob = await signInMember(b, 'bob');
    projectId = await createProjectAs(b, alice);
    await addMemberAs(b, alice, projectId, bob, 'DEVELOPER');
  }, 60_000);

  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
    await b?.close();
    await a?.stop();
    await database?.drop();
  });

  it('carries updates both ways within a second, and presence across the nodes', async () => {
    const onA = await join(a.url, alice);
    const onB = await join(b.url, bob);
    const sent = Date.now();
    onA.client.send({
      type: 'schema_layout_update',
      projectId,
      layout: { elements: [tableElement('from-a')], version: onA.init.layout.version },
      timestamp: sent,
    });
    const heardOnB = await onB.client.next((m) => m.type === 'schema_layout_update', 1_000);
    expect(heardOnB).toMatchObject({ userId: alice.accountId, timestamp: sent });
    expect(Date.now() - sent).toBeLessThan(1_000);
    const v = heardOnB.layout;
    onB.client.send({
      type: 'schema_layout_update',
      projectId,
      layout: { elements: [...v.elements, tableElement('from-b')], version: v.version },
      timestamp: Date.now(),
    });
    const heardOnA = await onA.client.next((m) => m.type === 'schema_layout_update', 1_000);
    expect(heardOnA.layout.elements.map((e: { id: string }) => e.id)).toEqual(['from-a', 'from-b']);
    const presence = await onA.client.next(
      (m) => m.type === 'schema_presence' && m.users.length === 2,
      PRESENCE_WAIT_MS,
    );
    expect(presence.users.map((u: { name: string }) => u.name).sort()).toEqual(['alice', 'bob']);
  });

  it('merges updates sent at once on both nodes without losing either', async () => {
    const onA = await join(a.url, alice);
    const onB = await join(b.url, bob);
    const base = onA.init.layout;
    const sends = Array.from({ length: 10 }, (_, i) => i);
    for (const i of sends) {
      onA.client.send({
        type: 'schema_layout_update',
        projectId,
        layout: { elements: [...base.elements, tableElement(`a${i}`)], version: base.version },
      });
      onB.client.send({
        type: 'schema_layout_update',
        projectId,
        layout: { elements: [...base.elements, tableElement(`b${i}`)], version: base.version },
      });
    }
    for (const _ of sends) {
      await onA.client.next((m) => m.type === 'schema_layout_saved');
      await onB.client.next((m) => m.type === 'schema_layout_saved');
    }
    const now = (await b.request('GET', `/api/projects/${projectId}/schema`, { headers: alice.headers })).body.layout;
    const ids = now.elements.map((e: { id: string }) => e.id);
    for (const i of sends) expect(ids).toEqual(expect.arrayContaining([`a${i}`, `b${i}`]));
  });

  it('gives editors reconnecting to a restarted node the current layout', async () => {
    const onB = await join(b.url, bob);
    await a.kill();
    a = await startServerProcess({ DATABASE_URL: database.url, SITE_URL: siteUrl });
    const onA = await join(a.url, alice);
    expect(onA.init.layout.version).toBe(onB.init.layout.version);
    expect(onA.init.layout.elements).toEqual(onB.init.layout.elements);
  }, 60_000);
});

// Presence announcements are sent at once on a join; this allows for a loaded machine.
const PRESENCE_WAIT_MS = 6_000;

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestUser, users } from '../../testing/auth.fixtures.js';
import { addMemberAs, createProjectAs, linkTableAs, type Member } from '../../testing/projects.fixtures.js';
import { changesOf, closeClients, subscribed } from '../../testing/realtime.fixtures.js';
import {
  createRestTable,
  type RestUser,
  restClient,
  signUpRestUser,
  startRestServer,
} from '../../testing/rest.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// postgres_changes through the unmodified supabase-js: a console account (this instance's anon key, signed in)
// hears its own table's INSERT, UPDATE and DELETE with every column converted by the client, filters narrow what
// it hears, history reverts reach it like any write, and nobody hears a table of another account.

describe.each(testDialects)('realtime postgres_changes with supabase-js on %s', (dialect) => {
  let server: TestServer;
  let alice: RestUser;
  let bob: RestUser;
  let n = 0;

  beforeAll(async () => {
    server = await startRestServer(dialect);
    alice = await signUpRestUser(server, users.alice);
    bob = await signUpRestUser(server, users.bob);
  });
  afterAll(async () => {
    await closeClients(alice.client, bob.client);
    await server.close();
  });

  const fresh = async (user: RestUser = alice) => {
    const name = `todos_${++n}`;
    const table = await createRestTable(user, name);
    return { name, id: table.id };
  };

  it('hears an INSERT with every column converted, and the commit timestamp', async () => {
    const { name } = await fresh();
    const { channel, inbox } = await changesOf(alice.client, `inserts-${n}`, { event: 'INSERT', table: name });
    const before = Date.now();
    const { data } = await alice.client
      .from(name)
      .insert({ title: 'a', qty: 2.5, done: true, due: '2025-01-02', meta: { k: [1] }, tags: ['x'], note: null })
      .select()
      .single();
    const payload = await inbox.next();
    expect(payload).toMatchObject({
      schema: 'public',
      table: name,
      eventType: 'INSERT',
      errors: null,
      new: { id: data.id, title: 'a', qty: 2.5, done: true, meta: { k: [1] }, tags: ['x'], note: null },
      old: {},
    });
    expect((payload.new as Record<string, unknown>).due).toBe(data.due);
    expect((payload.new as Record<string, unknown>).created_at).toBe(data.created_at);
    const committed = Date.parse(String(payload.commit_timestamp));
    expect(committed).toBeGreaterThanOrEqual(before - 1000);
    await alice.client.removeChannel(channel);
  });

  it('hears UPDATE and DELETE with the old record, and `*` hears all three in order', async () => {
    const { name } = await fresh();
    const { channel, inbox } = await changesOf(alice.client, `all-${n}`, { event: '*', table: name });
    const { data } = await alice.client.from(name).insert({ title: 'a', qty: 1 }).select().single();
    await alice.client.from(name).update({ qty: 2 }).eq('id', data.id);
    await alice.client.from(name).delete().eq('id', data.id);
    const inserted = await inbox.next();
    const updated = await inbox.next();
    const deleted = await inbox.next();
    expect([inserted.eventType, updated.eventType, deleted.eventType]).toEqual(['INSERT', 'UPDATE', 'DELETE']);
    expect(updated).toMatchObject({ new: { id: data.id, qty: 2 }, old: { id: data.id, qty: 1 } });
    expect(deleted).toMatchObject({ new: {}, old: { id: data.id, title: 'a', qty: 2 } });
    await alice.client.removeChannel(channel);
  });

  it.each([
    ['qty=eq.5', [5]],
    ['qty=neq.5', [1, 9]],
    ['qty=lt.5', [1]],
    ['qty=lte.5', [1, 5]],
    ['qty=gt.5', [9]],
    ['qty=gte.5', [5, 9]],
    ['qty=in.(1,9)', [1, 9]],
    ['title=eq.b,c', []],
    ['title=in.("a,b",c)', [1, 9]],
    ['qty=not.in.(1,9)', [5]],
    ['qty=is.null', [null]],
    ['qty=gt.1,qty=lt.9', [5]],
  ])('filters INSERTs with %s', async (filter, heard) => {
    const { name } = await fresh();
    const { channel, inbox } = await changesOf(alice.client, `filter-${n}`, { event: 'INSERT', table: name, filter });
    await alice.client.from(name).insert([
      { title: 'a,b', qty: 1 },
      { title: 'b', qty: 5 },
      { title: 'c', qty: 9 },
      { title: 'd', qty: null },
    ]);
    // A last row every filter above lets through or not, heard by a second channel: once it arrives, so have the others.
    const { channel: all, inbox: everything } = await changesOf(alice.client, `filter-all-${n}`, {
      event: 'INSERT',
      table: name,
    });
    await alice.client.from(name).insert({ title: 'last', qty: 1000 });
    await everything.next((p) => (p.new as Record<string, unknown>).title === 'last');
    const quantities = inbox.items.map((p) => (p.new as Record<string, unknown>).qty).filter((q) => q !== 1000);
    expect(quantities).toEqual(heard);
    await alice.client.removeChannel(channel);
    await alice.client.removeChannel(all);
  });

  it('sends each change only to the channels its eq value matches, through unsubscribes and a filter edit', async () => {
    const { name } = await fresh();
    const on = (topic: string, filter: string) =>
      changesOf(alice.client, `${topic}-${n}`, { event: 'INSERT', table: name, filter });
    const ones = await on('ones', 'qty=eq.1');
    const twos = await on('twos', 'qty=eq.2');
    const alsoOnes = await on('also-ones', 'qty=eq.1.0');
    const { channel: all, inbox: everything } = await changesOf(alice.client, `eq-all-${n}`, {
      event: 'INSERT',
      table: name,
    });
    const writeAll = async (round: string) => {
      for (const qty of [1, 2, 3])
        await alice.client
          .from(name)
          .insert({ title: `${round}:${qty}`, qty })
          .throwOnError();
      // Once the last row reached the channel that hears everything, the others have theirs too.
      for (let i = 0; i < 3; i++)
        await everything.next((p) => String((p.new as Record<string, unknown>).title).startsWith(round));
    };
    const heard = (inbox: { items: Record<string, unknown>[] }) =>
      inbox.items.splice(0).map((p) => (p.new as Record<string, unknown>).title);
    await writeAll('r1');
    expect(heard(ones.inbox)).toEqual(['r1:1']);
    expect(heard(twos.inbox)).toEqual(['r1:2']);
    expect(heard(alsoOnes.inbox)).toEqual(['r1:1']);
    // One unsubscribes; another changes its filter (supabase-js leaves and joins again).
    await alice.client.removeChannel(alsoOnes.channel);
    await alice.client.removeChannel(twos.channel);
    const threes = await on('twos', 'qty=eq.3');
    await writeAll('r2');
    expect(heard(ones.inbox)).toEqual(['r2:1']);
    expect(heard(threes.inbox)).toEqual(['r2:3']);
    expect(heard(twos.inbox)).toEqual([]);
    expect(heard(alsoOnes.inbox)).toEqual([]);
    for (const channel of [ones.channel, threes.channel, all]) await alice.client.removeChannel(channel);
  });

  it('hears a history revert like any write', async () => {
    const { name, id } = await fresh();
    const { data } = await alice.client.from(name).insert({ title: 'kept', qty: 1 }).select().single();
    const { channel, inbox } = await changesOf(alice.client, `revert-${n}`, { event: '*', table: name });
    const history = await server.request('GET', `/api/history?tableId=${id}`, { headers: alice.headers });
    expect(history.status).toBe(200);
    const change = history.body.data.find((c: { changeType: string }) => c.changeType === 'RECORD_CREATE');
    const reverted = await server.request('POST', `/api/history/${change.id}/revert`, { headers: alice.headers });
    expect(reverted.status).toBe(200);
    const deleted = await inbox.next();
    expect(deleted).toMatchObject({ eventType: 'DELETE', old: { id: data.id, title: 'kept' } });
    await alice.client.removeChannel(channel);
  });

  it('refuses a binding on a table of another account, an unknown table, a bad filter and another schema', async () => {
    const { name: bobs } = await fresh(bob);
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ table: bobs }, /does not exist/],
      [{ table: 'no_such_table' }, /does not exist/],
      [{ table: bobs, filter: 'qty=like.5' }, /does not exist|Unsupported filter operator/],
      [{ table: 'todos_1', filter: 'qty=like.5' }, /Unsupported filter operator/],
      [{ table: 'todos_1', filter: 'nope=eq.1' }, /no column "nope"/],
      [{ table: 'todos_1', filter: 'qty=eq.abc' }, /not a number/],
      [{ table: 'todos_1', schema: 'private' }, /public schema/],
    ];
    for (const [binding, reason] of cases) {
      const channel = alice.client
        .channel(`refused-${++n}`)
        .on('postgres_changes', { event: '*', schema: 'public', ...binding }, () => {});
      const outcome = await subscribed(channel);
      expect(outcome.status).toBe('CHANNEL_ERROR');
      expect(outcome.error).toMatch(reason);
      await alice.client.removeChannel(channel);
    }
    // Bob's rows never reach Alice through a channel of the same name as his.
    const { inbox } = await changesOf(bob.client, 'shared-name', { event: 'INSERT', table: bobs });
    const aliceTable = await fresh();
    const { inbox: aliceInbox } = await changesOf(alice.client, 'shared-name', {
      event: 'INSERT',
      table: aliceTable.name,
    });
    await bob.client.from(bobs).insert({ title: 'bob' });
    await inbox.next();
    expect(await aliceInbox.quiet()).toBe(true);
  });

  it('lets a project member hear a table shared with it, named #<id>, and nobody else', async () => {
    const { name, id } = await fresh();
    const asMember = (user: RestUser, person: TestUser): Member => ({
      accountId: user.accountId,
      email: person.email,
      username: person.username,
      token: user.accessToken,
      headers: user.headers,
    });
    const owner = asMember(alice, users.alice);
    const projectId = await createProjectAs(server, owner);
    await addMemberAs(server, owner, projectId, asMember(bob, users.bob), 'VIEWER');
    const unlinked = bob.client
      .channel(`unlinked-${n}`)
      .on('postgres_changes', { event: '*', schema: 'public', table: `#${id}` }, () => {});
    expect(await subscribed(unlinked)).toMatchObject({
      status: 'CHANNEL_ERROR',
      error: expect.stringMatching(/does not exist/),
    });
    await bob.client.removeChannel(unlinked);
    await linkTableAs(server, owner, projectId, id);
    const { channel, inbox } = await changesOf(bob.client, `shared-${n}`, { event: 'INSERT', table: `#${id}` });
    await alice.client.from(name).insert({ title: 'shared' }).throwOnError();
    expect(await inbox.next()).toMatchObject({ table: name, new: { title: 'shared' } });
    await bob.client.removeChannel(channel);
  });

  it('refuses a signed-out join with this instance key', async () => {
    const anonymous = restClient(server);
    const channel = anonymous
      .channel('anon')
      .on('postgres_changes', { event: '*', schema: 'public', table: 'todos_1' }, () => {});
    const outcome = await subscribed(channel);
    expect(outcome.status).toBe('CHANNEL_ERROR');
    expect(outcome.error).toMatch(/Anonymous access is disabled/);
    await anonymous.removeAllChannels();
  });
});

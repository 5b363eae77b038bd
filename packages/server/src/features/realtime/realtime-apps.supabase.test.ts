import { createClient } from '@supabase/supabase-js';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appClient,
  createSampleTables,
  type Developer,
  type EndUserClient,
  signUpEndUser,
  startDeveloper,
} from '../../testing/apps.fixtures.js';
import { signTestToken, startAuthServer, users } from '../../testing/auth.fixtures.js';
import { changesOf, closeClients, Inbox, subscribed, subscribeOrThrow } from '../../testing/realtime.fixtures.js';
import { type TestServer, testDialects } from '../../testing/test-server.js';

// An app's realtime with the unmodified supabase-js and the app's keys: the table access rules decide who hears
// which change (two end users under `own rows` hear only their rows; a DELETE of another's row reaches them with
// its id only), signed-out visitors hear public tables, a sign-in mid-channel (the client's `access_token`) lets a
// channel hear what the new user may, an expired token closes the channel with the client's system error, and
// another app's key or token reaches nothing of this app.

describe.each(testDialects)('realtime for an app with its own users on %s', (dialect) => {
  let server: TestServer;
  let dev: Developer;
  let other: Developer;
  let ann: EndUserClient;
  let ben: EndUserClient;

  beforeAll(async () => {
    server = await startAuthServer(dialect);
    dev = await startDeveloper(server, users.alice);
    other = await startDeveloper(server, users.bob);
    await createSampleTables(server, dev);
    ann = await signUpEndUser(server, dev, 'ann@example.com');
    ben = await signUpEndUser(server, dev, 'ben@example.com');
  });
  afterAll(async () => {
    await closeClients(ann.client, ben.client, dev.client, other.client);
    await server.close();
  });

  it('lets two end users hear only their own rows; a delete of the other one arrives as its id', async () => {
    const annHears = await changesOf(ann.client, 'todos-ann', { event: '*', table: 'todos' });
    const benHears = await changesOf(ben.client, 'todos-ben', { event: '*', table: 'todos' });
    const { data: annRow } = await ann.client.from('todos').insert({ title: 'milk' }).select().single();
    await ben.client.from('todos').insert({ title: 'bread' }).throwOnError();
    expect(await annHears.inbox.next()).toMatchObject({ eventType: 'INSERT', new: { title: 'milk', owner: ann.id } });
    expect(await benHears.inbox.next()).toMatchObject({ eventType: 'INSERT', new: { title: 'bread', owner: ben.id } });
    await ann.client.from('todos').update({ title: 'oat milk' }).eq('id', annRow.id).throwOnError();
    expect(await annHears.inbox.next()).toMatchObject({
      eventType: 'UPDATE',
      new: { title: 'oat milk' },
      old: { title: 'milk' },
    });
    await ann.client.from('todos').delete().eq('id', annRow.id).throwOnError();
    expect(await annHears.inbox.next()).toMatchObject({
      eventType: 'DELETE',
      old: { id: annRow.id, title: 'oat milk' },
    });
    const benSees = await benHears.inbox.next();
    expect(benSees).toMatchObject({ eventType: 'DELETE' });
    expect(benSees.old).toEqual({ id: annRow.id });
    expect(await benHears.inbox.quiet((p) => p.eventType !== 'DELETE')).toBe(true);
  });

  it('lets signed-out visitors hear public tables only; the developer hears every table', async () => {
    const visitor = appClient(server, dev.app.anonKey);
    const service = appClient(server, dev.app.serviceKey);
    const notices = await changesOf(visitor, 'notices', { event: 'INSERT', table: 'notices' });
    const board = await changesOf(visitor, 'board', { event: 'INSERT', table: 'board' });
    const secrets = await changesOf(visitor, 'recipes', { event: 'INSERT', table: 'recipes' });
    const everything = await changesOf(service, 'all', { event: 'INSERT' });
    await service.from('recipes').insert({ body: 'hidden' }).throwOnError();
    await service.from('board').insert({ body: 'members only' }).throwOnError();
    await service.from('notices').insert({ body: 'open today' }).throwOnError();
    expect(await notices.inbox.next()).toMatchObject({ table: 'notices', new: { body: 'open today' } });
    const tables = [await everything.inbox.next(), await everything.inbox.next(), await everything.inbox.next()];
    expect(tables.map((p) => p.table)).toEqual(['recipes', 'board', 'notices']);
    expect(await board.inbox.quiet()).toBe(true);
    expect(await secrets.inbox.quiet()).toBe(true);
    await closeClients(visitor, service);
  });

  it('hears what the new user may once the client signs in on a joined channel', async () => {
    const client = appClient(server, dev.app.anonKey);
    const board = await changesOf(client, 'board-later', { event: 'INSERT', table: 'board' });
    await ben.client.from('board').insert({ body: 'before' }).throwOnError();
    expect(await board.inbox.quiet()).toBe(true);
    const { error } = await client.auth.signInWithPassword({ email: ann.email, password: 'End-User-Passw0rd!' });
    expect(error).toBeNull();
    // supabase-js sends the new token on its joined channels (access_token); the next write is heard.
    for (let attempt = 0; attempt < 50; attempt++) {
      await ben.client
        .from('board')
        .insert({ body: `after ${attempt}` })
        .throwOnError();
      const heard = await board.inbox.next(() => true, 200).catch(() => null);
      if (heard) {
        expect(heard).toMatchObject({ table: 'board', new: { body: `after ${attempt}` } });
        break;
      }
      if (attempt === 49) throw new Error('the signed-in channel never heard the board');
    }
    await closeClients(client);
  });

  it('closes a channel when its token expires, with the system error supabase-js hands to the app', async () => {
    const claims = decodeJwt(ann.accessToken);
    const { exp: _exp, iat: _iat, sub, ...rest } = claims;
    const shortLived = await signTestToken(server, rest, { expiresIn: 2, subject: String(sub) });
    // A client whose token comes from the app (supabase-js's accessToken option) keeps using it, expired or not.
    const client = createClient(server.url, dev.app.anonKey, { accessToken: async () => shortLived });
    // Its first token arrives asynchronously: a channel subscribed before would join signed out (and stay so).
    await client.realtime.setAuth();
    const system = new Inbox<Record<string, unknown>>();
    const statuses = new Inbox<string>();
    const channel = client.channel('expiring').on('system', {}, (payload) => system.push(payload));
    channel.subscribe((status) => statuses.push(status));
    await statuses.next((s) => s === 'SUBSCRIBED');
    const closed = await system.next((p) => p.status === 'error', 6000);
    expect(closed).toMatchObject({ extension: 'system', status: 'error', channel: 'expiring' });
    expect(String(closed.message)).toMatch(/^Token has expired \d+ seconds ago$/);
    await statuses.next((s) => s === 'CLOSED');
    // A join with the expired token is refused with the same words.
    const again = client.channel('expired-join');
    const outcome = await subscribed(again);
    expect(outcome).toMatchObject({ status: 'CHANNEL_ERROR' });
    expect(outcome.error).toMatch(/Token has expired/);
    await closeClients(client);
  });

  it('refuses private channels to signed-out visitors and opens them to end users', async () => {
    const visitor = appClient(server, dev.app.anonKey);
    const refused = await subscribed(visitor.channel('staff', { config: { private: true } }));
    expect(refused.status).toBe('CHANNEL_ERROR');
    expect(refused.error).toMatch(/do not have permissions to read from this Channel topic: staff/);
    await subscribeOrThrow(ann.client.channel('staff', { config: { private: true } }));
    await closeClients(visitor);
  });

  it("keeps apps apart: another app's token is refused, its channels never meet this app's", async () => {
    const mixed = appClient(server, other.app.anonKey);
    await mixed.realtime.setAuth(ann.accessToken);
    const outcome = await subscribed(mixed.channel('room'));
    expect(outcome.status).toBe('CHANNEL_ERROR');
    expect(outcome.error).toMatch(/another key/);
    await closeClients(mixed);

    const outsider = appClient(server, other.app.anonKey);
    const heard = new Inbox<unknown>();
    const theirs = outsider.channel('room').on('broadcast', { event: 'hello' }, (p) => heard.push(p));
    await subscribeOrThrow(theirs);
    const mine = ben.client.channel('room');
    await subscribeOrThrow(mine);
    const otherApps = await changesOf(outsider, 'todos-elsewhere', { event: '*', table: 'todos' }).catch(
      (e: Error) => e,
    );
    expect(otherApps).toBeInstanceOf(Error);
    await mine.send({ type: 'broadcast', event: 'hello', payload: { from: 'ben' } });
    expect(await heard.quiet()).toBe(true);
    await closeClients(outsider);
  });
});

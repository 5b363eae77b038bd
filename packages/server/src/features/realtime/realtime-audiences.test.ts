import type { TableAccess } from '@basalt/shared';
import { describe, expect, it } from 'vitest';
import type { TableDefinition } from '../../db/user-tables.js';
import type { Actor } from '../../lib/actor/actor.js';
import type { RecordChange } from '../records/record-events.js';
import type { RecordRow } from '../records/record-values.js';
import { createAudiences } from './realtime-audiences.js';
import { deliverChange } from './realtime-delivery.js';
import { checkFilter, eqKeyOf, parseFilter } from './realtime-filters.js';
import type { Audience, Binding, Channel, Connection } from './realtime-types.js';

// The index of audiences only narrows which channels a change visits, and an audience decides once for all its
// channels: so every change must reach exactly the channels (with exactly the bytes) that deciding channel by
// channel gives, through joins, leaves, filter edits, rule changes and a column's change of type. Checked on many
// random subscriptions and changes (a seeded generator: the same cases every run).

const ACCOUNT = 'acc';
const schema = {
  name: { type: 'text' },
  qty: { type: 'number' },
  done: { type: 'boolean' },
  owner: { type: 'text' },
} as unknown as TableDefinition['schema'];

const tableWith = (access: TableAccess, qtyType: 'number' | 'text' = 'number'): TableDefinition => ({
  id: 7,
  accountId: ACCOUNT,
  name: 'items',
  description: null,
  schemaVersion: 1,
  schema: { ...schema, qty: { type: qtyType } } as unknown as TableDefinition['schema'],
  access,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

const ACCESS: TableAccess[] = [
  { select: 'public', insert: 'public', update: 'public', delete: 'public', ownerColumn: null },
  { select: 'authenticated', insert: 'nobody', update: 'nobody', delete: 'nobody', ownerColumn: null },
  { select: 'own', insert: 'own', update: 'own', delete: 'own', ownerColumn: 'owner' },
  { select: 'nobody', insert: 'nobody', update: 'nobody', delete: 'nobody', ownerColumn: null },
];

const app = (role: 'anon' | 'authenticated' | 'service_role') => ({ ref: 'app1', role });
const ACTORS: Actor[] = [
  { accountId: ACCOUNT },
  { accountId: ACCOUNT, app: app('anon') },
  { accountId: ACCOUNT, app: app('service_role') },
  { accountId: ACCOUNT, app: app('authenticated'), endUser: { id: 'u1' } },
  { accountId: ACCOUNT, app: app('authenticated'), endUser: { id: 'u2' } },
  { accountId: ACCOUNT, app: app('authenticated'), endUser: { id: 'u3' } },
];

const FILTERS = [
  null,
  null,
  'qty=eq.1',
  'qty=eq.2',
  'qty=eq.2.0',
  'name=eq.n1',
  'name=eq.n2',
  'qty=eq.1,done=eq.true',
  'done=eq.true,qty=eq.3',
  'qty=not.eq.1',
  'qty=neq.2',
  'qty=in.(1,3)',
  'qty=gt.1',
  'done=eq.false',
  'owner=eq.u1',
  'id=eq.3',
  'qty=is.null',
];
const EVENTS = ['*', 'INSERT', 'UPDATE', 'DELETE'] as const;

function random(seed: number) {
  let state = seed >>> 0;
  return (n: number) => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state % n;
  };
}

describe('realtime audiences', () => {
  it('reach exactly the channels that deciding one by one reaches, with the same frames', () => {
    const pick = random(29);
    const audiences = createAudiences();
    let table = tableWith(ACCESS[0] as TableAccess);
    const conns: Connection[] = [];
    const joined = new Set<Channel>();
    let ids = 0;

    const bindingOf = (actor: Actor): Binding => {
      const event = EVENTS[pick(EVENTS.length)] as Binding['event'];
      const text = FILTERS[pick(FILTERS.length)] ?? null;
      const filter = text === null ? null : parseFilter(text);
      if (filter) checkFilter(filter, table);
      // A handful of ids, so that channels of different bindings share topics and ids sometimes.
      return {
        id: 1 + pick(3),
        event,
        tableId: table.id,
        filter,
        eq: filter && eqKeyOf(filter, table),
        actor,
        follows: true,
      };
    };
    const join = () => {
      // Half the time another client of the same app: the same subscription (as another actor object).
      const [like] = pick(2) === 0 && joined.size > 0 ? [...joined].slice(pick(joined.size)) : [];
      const conn = {
        id: ++ids,
        vsn: like?.conn.vsn ?? (pick(4) === 0 ? '1.0.0' : '2.0.0'),
        channels: new Map(),
        closed: false,
      } as unknown as Connection;
      conns.push(conn);
      const actor = like ? { ...like.actor } : (ACTORS[pick(ACTORS.length)] as Actor);
      const count = 1 + pick(2);
      const bindings = like
        ? like.bindings.map((binding) => ({ ...binding, actor }))
        : Array.from({ length: count }, () => bindingOf(actor));
      const channel = {
        id: ++ids,
        conn,
        topic: like?.topic ?? `realtime:t${pick(2)}`,
        accountId: ACCOUNT,
        actor,
        bindings,
        audience: null,
      } as unknown as Channel;
      conn.channels.set(channel.topic, channel);
      audiences.join(channel, 0);
      joined.add(channel);
    };
    const leave = (channel: Channel) => {
      audiences.leave(channel);
      joined.delete(channel);
    };

    const row = (id: number): RecordRow => ({
      id,
      name: `n${pick(3)}`,
      qty:
        pick(5) === 0
          ? null
          : table.schema.qty?.type === 'text'
            ? (['1', '2', '2.0', '3'][pick(4)] as string)
            : 1 + pick(3),
      done: pick(2) === 0,
      owner: `u${1 + pick(3)}`,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    });
    const changeOf = (): RecordChange => {
      const type = (['INSERT', 'UPDATE', 'DELETE'] as const)[pick(3)] as RecordChange['type'];
      const id = 1 + pick(5);
      return {
        type,
        record: type === 'DELETE' ? null : row(id),
        oldRecord: type === 'INSERT' ? null : row(id),
      };
    };

    const heardBy = (list: Iterable<Audience>, change: RecordChange) => {
      const heard = new Map<number, string>();
      deliverChange(list, table, change, '2026-01-01T00:00:01.000Z', (audience, frame) => {
        for (const channel of audience.channels.keys()) {
          expect(heard.has(channel.id)).toBe(false);
          heard.set(channel.id, frame.toString());
        }
      });
      return heard;
    };
    // The reference: each channel on its own, its own bindings, every channel visited.
    const oneByOne = (change: RecordChange) =>
      heardBy(
        [...joined].map((channel) => ({
          key: '',
          vsn: channel.conn.vsn,
          topic: channel.topic,
          bindings: channel.bindings,
          channels: new Map([[channel, 0]]),
          pending: [],
        })),
        change,
      );

    let compared = 0;
    let heardSome = 0;
    for (let step = 0; step < 400; step++) {
      const what = pick(10);
      if (what < 3) for (let i = 0; i < 5; i++) join();
      else if (what === 3 && joined.size > 0) {
        // Unsubscribe some.
        for (const channel of [...joined]) if (pick(4) === 0) leave(channel);
      } else if (what === 4 && joined.size > 0) {
        // Edit a filter: the client leaves and joins again with another config.
        const [channel] = [...joined].slice(pick(joined.size));
        if (channel) {
          leave(channel);
          join();
        }
      } else if (what === 5) {
        // The table's rules change (on this node or another: the next change carries the new definition).
        table = tableWith(ACCESS[pick(ACCESS.length)] as TableAccess, table.schema.qty?.type as 'number');
      } else if (what === 6 && pick(2) === 0) {
        // The filtered column changes type: filters read before are still decided in full.
        table = tableWith(table.access as TableAccess, table.schema.qty?.type === 'number' ? 'text' : 'number');
      }
      for (let i = 0; i < 3; i++) {
        const change = changeOf();
        const indexed = heardBy(audiences.of(table, ACCOUNT, change), change);
        expect(indexed).toEqual(oneByOne(change));
        compared++;
        if (indexed.size > 0) heardSome++;
      }
    }
    expect(compared).toBe(1200);
    // The cases are not vacuous: many changes are heard, and channels share audiences.
    expect(heardSome).toBeGreaterThan(300);
    expect(audiences.size).toBeLessThan(joined.size);
    for (const channel of [...joined]) leave(channel);
    expect(audiences.size).toBe(0);
    expect(audiences.mayHear(table.id, ACCOUNT)).toBe(false);
  });

  it('visits only the audiences whose eq value a change holds', () => {
    const audiences = createAudiences();
    const table = tableWith(ACCESS[0] as TableAccess);
    const actor: Actor = { accountId: ACCOUNT };
    for (let i = 0; i < 1000; i++) {
      const filter = parseFilter(`name=eq.nobody ${i}`);
      const conn = { id: i, vsn: '2.0.0', channels: new Map(), closed: false } as unknown as Connection;
      const binding: Binding = {
        id: i + 1,
        event: 'INSERT',
        tableId: table.id,
        filter,
        eq: eqKeyOf(filter, table),
        actor,
        follows: true,
      };
      const channel = { id: i, conn, topic: 'realtime:items', accountId: ACCOUNT, bindings: [binding], audience: null };
      audiences.join(channel as unknown as Channel, 0);
    }
    const insert = (name: string): RecordChange => ({
      type: 'INSERT',
      record: { id: 1, name, qty: 1, done: false, owner: null } as unknown as RecordRow,
      oldRecord: null,
    });
    expect([...audiences.of(table, ACCOUNT, insert('live 1'))]).toHaveLength(0);
    const found = [...audiences.of(table, ACCOUNT, insert('nobody 7'))];
    expect(found).toHaveLength(1);
    expect(found[0]?.bindings[0]?.id).toBe(8);
  });

  it('still finds channels whose filtered column has changed type since they joined', () => {
    const audiences = createAudiences();
    const before = tableWith(ACCESS[0] as TableAccess, 'text');
    const filter = parseFilter('qty=eq.2.0');
    checkFilter(filter, before);
    const conn = { id: 1, vsn: '2.0.0', channels: new Map(), closed: false } as unknown as Connection;
    const binding: Binding = {
      id: 1,
      event: '*',
      tableId: before.id,
      filter,
      eq: eqKeyOf(filter, before),
      actor: { accountId: ACCOUNT },
      follows: true,
    };
    const channel = { id: 1, conn, topic: 'realtime:items', accountId: ACCOUNT, bindings: [binding], audience: null };
    audiences.join(channel as unknown as Channel, 0);
    // Now a number column: 2 equals "2.0" as numbers compare.
    const after = tableWith(ACCESS[0] as TableAccess, 'number');
    const change: RecordChange = {
      type: 'INSERT',
      record: { id: 1, name: 'a', qty: 2, done: false, owner: null } as unknown as RecordRow,
      oldRecord: null,
    };
    const found = [...audiences.of(after, ACCOUNT, change)];
    expect(found).toHaveLength(1);
    let heard = 0;
    deliverChange(found, after, change, '2026-01-01T00:00:01.000Z', () => heard++);
    expect(heard).toBe(1);
  });
});

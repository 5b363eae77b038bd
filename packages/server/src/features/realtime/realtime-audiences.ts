import type { ColumnType } from '@basalt/shared';
import { columnTypeIn, type TableDefinition } from '../../db/user-tables.js';
import type { Actor } from '../../lib/actor/actor.js';
import type { RecordChange } from '../records/record-events.js';
import { isLimited } from '../records/record-rules.js';
import { eqValueOf } from './realtime-filters.js';
import type { Audience, Binding, Channel } from './realtime-types.js';

// Which channels can hear a record change, found without visiting the others. Channels that would hear every
// change alike form one audience (realtime-types.ts): the thousand sockets of an app's clients on one table are
// one audience, decided once per change. Audiences are indexed by table (or, for bindings on every table, by
// account); an audience of one binding whose filter has an `eq` term is indexed under that term's value too, so
// that a change visits only those whose value it holds (a subscriber to `id=eq.7` costs nothing to a change of
// row 8). The index only narrows: what each visited audience hears is still decided in full (realtime-delivery).

/** ruleContextOf is what of an actor the access rules read (record-rules.ts rowRuleOf): the same, the same rows. */
export function ruleContextOf(actor: Actor): string {
  if (!isLimited(actor)) return `${actor.accountId}\u0001*`;
  return `${actor.accountId}\u0001${actor.app?.role ?? ''}\u0001${actor.endUser?.id ?? ''}`;
}

const bindingKey = (b: Binding) =>
  `${b.id}\u0002${b.event}\u0002${b.tableId ?? '*'}\u0002${JSON.stringify(b.filter)}\u0002${ruleContextOf(b.actor)}`;

/** audienceKeyOf names the audience of a channel. */
function audienceKeyOf(channel: Channel): string {
  const { conn, topic, accountId, bindings } = channel;
  return `${conn.vsn}\u0000${topic}\u0000${accountId}\u0000${bindings.map(bindingKey).join('\u0003')}`;
}

interface EqEntry {
  column: string;
  type: ColumnType;
  values: Map<string, Set<Audience>>;
}

interface TableIndex {
  plain: Set<Audience>;
  /** By column and the column's type when the filters were read (a changed type falls back to visiting all). */
  eq: Map<string, EqEntry>;
}

/** Audiences keeps this node's audiences and their index. */
export interface Audiences {
  /** join puts a channel with bindings in its audience; `seq` is the outbox's number now. */
  join(channel: Channel, seq: number): void;
  /** leave takes a channel out of its audience; it hears nothing more of it, queued or not. */
  leave(channel: Channel): void;
  /** mayHear tells quickly whether any audience may hear changes of the table. */
  mayHear(tableId: number, accountId: string): boolean;
  /** of lists the audiences that may hear a change of the table (each once). */
  of(table: TableDefinition, accountId: string, change: RecordChange): Iterable<Audience>;
  readonly size: number;
}

const addTo = <K, V>(index: Map<K, Set<V>>, key: K, value: V) => {
  const set = index.get(key);
  if (set) set.add(value);
  else index.set(key, new Set([value]));
};
const removeFrom = <K, V>(index: Map<K, Set<V>>, key: K, value: V) => {
  const set = index.get(key);
  if (!set) return;
  set.delete(value);
  if (set.size === 0) index.delete(key);
};

/** createAudiences makes an empty set of audiences. */
export function createAudiences(): Audiences {
  const byKey = new Map<string, Audience>();
  const byTable = new Map<number, TableIndex>();
  const allTablesOf = new Map<string, Set<Audience>>();

  // Where an audience is filed: its one eq-filtered binding's value, else every table of its bindings.
  function place(audience: Audience, accountId: string, add: boolean) {
    const [only] = audience.bindings;
    const eq = audience.bindings.length === 1 && only?.tableId != null ? only.eq : null;
    for (const binding of audience.bindings) {
      if (binding.tableId === null) {
        if (add) addTo(allTablesOf, accountId, audience);
        else removeFrom(allTablesOf, accountId, audience);
        continue;
      }
      let index = byTable.get(binding.tableId);
      if (!index) {
        if (!add) continue;
        index = { plain: new Set(), eq: new Map() };
        byTable.set(binding.tableId, index);
      }
      if (eq) {
        const slot = `${eq.column}\u0000${eq.type}`;
        let entry = index.eq.get(slot);
        if (!entry && add) {
          entry = { column: eq.column, type: eq.type, values: new Map() };
          index.eq.set(slot, entry);
        }
        if (entry && add) addTo(entry.values, eq.value, audience);
        else if (entry) {
          removeFrom(entry.values, eq.value, audience);
          if (entry.values.size === 0) index.eq.delete(slot);
        }
      } else if (add) index.plain.add(audience);
      else index.plain.delete(audience);
      if (!add && index.plain.size === 0 && index.eq.size === 0) byTable.delete(binding.tableId);
    }
  }

  return {
    join(channel, seq) {
      if (channel.bindings.length === 0) return;
      const key = audienceKeyOf(channel);
      let audience = byKey.get(key);
      if (!audience) {
        audience = {
          key,
          vsn: channel.conn.vsn,
          topic: channel.topic,
          bindings: channel.bindings.map((binding) => ({ ...binding })),
          channels: new Map(),
          pending: [],
        };
        byKey.set(key, audience);
        place(audience, channel.accountId, true);
      }
      audience.channels.set(channel, seq);
      channel.audience = audience;
    },
    leave(channel) {
      const audience = channel.audience;
      if (!audience) return;
      channel.audience = null;
      audience.channels.delete(channel);
      if (audience.channels.size > 0) return;
      byKey.delete(audience.key);
      place(audience, channel.accountId, false);
    },
    mayHear: (tableId, accountId) => byTable.has(tableId) || allTablesOf.has(accountId),
    of(table, accountId, change) {
      const index = byTable.get(table.id);
      const all = allTablesOf.get(accountId);
      const found: Audience[] = [];
      if (index) {
        for (const audience of index.plain) found.push(audience);
        // A filter is checked against the new record, or a DELETE's old one.
        const record = change.type === 'DELETE' ? change.oldRecord : change.record;
        for (const entry of index.eq.values()) {
          if (columnTypeIn(table, entry.column) === entry.type) {
            const value = eqValueOf(entry, record);
            const audiences = value === undefined ? undefined : entry.values.get(value);
            if (audiences) for (const audience of audiences) found.push(audience);
          } else {
            // The column changed type since these filters were read: visit them all, decided in full.
            for (const audiences of entry.values.values()) for (const audience of audiences) found.push(audience);
          }
        }
      }
      if (!all) return found;
      if (found.length === 0) return all;
      // An audience with bindings on this table and on every table is filed under both: it hears the change once.
      return new Set([...found, ...all]);
    },
    get size() {
      return byKey.size;
    },
  };
}

import type { TableDefinition } from '../../db/user-tables.js';
import type { RecordChange } from '../records/record-events.js';
import type { RowRule } from '../records/record-rules.js';
import { changeData, recordsSeen, selectRuleOf, type Visibility, visibilityOf } from './realtime-changes.js';
import { matchesFilter } from './realtime-filters.js';
import { encodeRawMessage } from './realtime-frames.js';
import type { Binding, Channel } from './realtime-types.js';
import { wsFrame } from './realtime-wire.js';

// One record change, sent to the channels that subscribed to its table: each channel gets one postgres_changes
// message carrying the ids of its bindings that hear it (event, rules, filter). With many subscribers the work is
// shared: the change's data is written once per kind of visibility, and the whole frame once per (protocol,
// topic, ids, visibility), so a thousand sockets on the same topic and binding cost one encoding and a thousand
// sends.

/** Send hands a WebSocket frame to a channel's socket. */
export type Send = (channel: Channel, frame: Buffer) => void;

const DELETE_OLD_ONLY: Exclude<Visibility, null> = { oldWhole: false };

// What one binding decides: null when it does not hear the change, else the visibility it hears it with.
function bindingHears(
  binding: Binding,
  table: TableDefinition,
  change: RecordChange,
  rules: Map<Binding['actor'], RowRule>,
): Visibility {
  if (binding.tableId !== null && binding.tableId !== table.id) return null;
  if (binding.event !== '*' && binding.event !== change.type) return null;
  let rule = rules.get(binding.actor);
  if (rule === undefined) {
    rule = selectRuleOf(binding.actor, table);
    rules.set(binding.actor, rule);
  }
  const visibility = visibilityOf(rule, change);
  if (visibility === null || binding.filter === null) return visibility;
  const seen = recordsSeen(change, visibility);
  const checked = change.type === 'DELETE' ? seen.oldRecord : seen.record;
  return checked !== null && matchesFilter(binding.filter, table, checked) ? visibility : null;
}

/** deliverChange sends one change of `table` to every channel that hears it. */
export function deliverChange(
  channels: Iterable<Channel>,
  table: TableDefinition,
  change: RecordChange,
  commitTimestamp: string,
  send: Send,
): void {
  const data = new Map<boolean, string>();
  const frames = new Map<string, Buffer>();
  const rules = new Map<Binding['actor'], RowRule>();
  for (const channel of channels) {
    const ids: number[] = [];
    let oldWhole = true;
    for (const binding of channel.bindings) {
      const visibility = bindingHears(binding, table, change, rules);
      if (visibility === null) continue;
      ids.push(binding.id);
      // Several bindings of one channel may differ (a member's and the channel's): the least whole view wins.
      oldWhole &&= visibility.oldWhole;
    }
    if (ids.length === 0) continue;
    const key = `${channel.conn.vsn}\u0000${channel.topic}\u0000${oldWhole ? 1 : 0}\u0000${ids.join(',')}`;
    let frame = frames.get(key);
    if (!frame) {
      let json = data.get(oldWhole);
      if (json === undefined) {
        json = changeData(table, change, oldWhole ? { oldWhole } : DELETE_OLD_ONLY, commitTimestamp);
        data.set(oldWhole, json);
      }
      const payload = `{"ids":[${ids.join(',')}],"data":${json}}`;
      const message = encodeRawMessage(channel.conn.vsn, null, null, channel.topic, 'postgres_changes', payload);
      frame = wsFrame(Buffer.from(message), false);
      frames.set(key, frame);
    }
    send(channel, frame);
  }
}

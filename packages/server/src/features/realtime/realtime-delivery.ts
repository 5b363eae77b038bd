import type { TableDefinition } from '../../db/user-tables.js';
import type { RecordChange } from '../records/record-events.js';
import type { RowRule } from '../records/record-rules.js';
import { ruleContextOf } from './realtime-audiences.js';
import { changeData, recordsSeen, selectRuleOf, type Visibility, visibilityOf } from './realtime-changes.js';
import { matchesFilter } from './realtime-filters.js';
import { encodeRawMessage } from './realtime-frames.js';
import type { Audience, Binding } from './realtime-types.js';
import { wsFrame } from './realtime-wire.js';

// One record change, sent to the audiences that may hear it (realtime-audiences.ts): each audience's channels get
// one postgres_changes message carrying the ids of its bindings that hear it (event, rules, filter). Everything is
// decided once per audience, not per socket; the rule of each rule context once per change; the change's data is
// written once per kind of visibility, and the whole frame once per (protocol, topic, ids, visibility).

/** Send hands a WebSocket frame to every channel of an audience. */
export type Send = (audience: Audience, frame: Buffer) => void;

const DELETE_OLD_ONLY: Exclude<Visibility, null> = { oldWhole: false };

// What one binding decides: null when it does not hear the change, else the visibility it hears it with.
function bindingHears(
  binding: Binding,
  table: TableDefinition,
  change: RecordChange,
  rules: Map<string, RowRule>,
): Visibility {
  if (binding.tableId !== null && binding.tableId !== table.id) return null;
  if (binding.event !== '*' && binding.event !== change.type) return null;
  const context = ruleContextOf(binding.actor);
  let rule = rules.get(context);
  if (rule === undefined) {
    rule = selectRuleOf(binding.actor, table);
    rules.set(context, rule);
  }
  const visibility = visibilityOf(rule, change);
  if (visibility === null || binding.filter === null) return visibility;
  const seen = recordsSeen(change, visibility);
  const checked = change.type === 'DELETE' ? seen.oldRecord : seen.record;
  return checked !== null && matchesFilter(binding.filter, table, checked) ? visibility : null;
}

/** deliverChange sends one change of `table` to every audience that hears it. */
export function deliverChange(
  audiences: Iterable<Audience>,
  table: TableDefinition,
  change: RecordChange,
  commitTimestamp: string,
  send: Send,
): void {
  const data = new Map<boolean, string>();
  const frames = new Map<string, Buffer>();
  const rules = new Map<string, RowRule>();
  for (const audience of audiences) {
    const ids: number[] = [];
    let oldWhole = true;
    for (const binding of audience.bindings) {
      const visibility = bindingHears(binding, table, change, rules);
      if (visibility === null) continue;
      ids.push(binding.id);
      // Several bindings of one channel may differ (a member's and the channel's): the least whole view wins.
      oldWhole &&= visibility.oldWhole;
    }
    if (ids.length === 0) continue;
    const key = `${audience.vsn}\u0000${audience.topic}\u0000${oldWhole ? 1 : 0}\u0000${ids.join(',')}`;
    let frame = frames.get(key);
    if (!frame) {
      let json = data.get(oldWhole);
      if (json === undefined) {
        json = changeData(table, change, oldWhole ? { oldWhole } : DELETE_OLD_ONLY, commitTimestamp);
        data.set(oldWhole, json);
      }
      const payload = `{"ids":[${ids.join(',')}],"data":${json}}`;
      const message = encodeRawMessage(audience.vsn, null, null, audience.topic, 'postgres_changes', payload);
      frame = wsFrame(Buffer.from(message), false);
      frames.set(key, frame);
    }
    send(audience, frame);
  }
}

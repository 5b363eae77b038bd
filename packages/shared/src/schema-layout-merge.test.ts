import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LayoutElement, StoredLayout } from './schema-layout.schemas.js';
import { deletedElementIds, mergeFields, mergeLayoutElements, sameValue } from './schema-layout-merge.js';
import { type LayoutSync, syncAck, syncEdit, syncRemote, syncStart, syncTakeSend } from './schema-layout-sync.js';

// The merge rules as examples, then as properties: two editors edit one layout through a server
// that merges every update against the version it was based on, with every interleaving of their edits and of
// the answers they receive; every edit nobody else contradicted is in the final layout, and whatever anybody
// deleted stays deleted.

const addTableLike = (): LayoutElement => ({
  id: 'new',
  name: 'Table 1',
  type: 'table',
  position: { x: 80, y: 80 },
  fields: [{ id: 'new.id', name: 'id', type: 'integer' }],
});

const table = (id: string, x = 0, fields = ['id', 'name']): LayoutElement => ({
  id,
  name: `Table ${id}`,
  type: 'table',
  position: { x, y: 0 },
  fields: fields.map((name, i) => ({ id: `${id}.${name}`, name, type: i === 0 ? 'integer' : 'string' })),
});

describe('mergeLayoutElements (examples)', () => {
  const base = [table('a'), table('b')];

  it('keeps both when two people edit different fields of one table', () => {
    const mine = [
      { ...table('a'), fields: [table('a').fields[0]!, { ...table('a').fields[1]!, type: 'text' }] },
      table('b'),
    ];
    const theirs = [
      { ...table('a'), fields: [{ ...table('a').fields[0]!, name: 'key' }, table('a').fields[1]!] },
      table('b'),
    ];
    const merged = mergeLayoutElements({ base, mine, theirs });
    expect(merged[0]?.fields.map((f) => [f.name, f.type])).toEqual([
      ['key', 'integer'],
      ['name', 'text'],
    ]);
  });

  it('keeps an element deleted by one and moved by the other deleted, in either order', () => {
    const moved = [table('a', 500), table('b')];
    const deleted = [table('b')];
    expect(mergeLayoutElements({ base, mine: moved, theirs: deleted }).map((e) => e.id)).toEqual(['b']);
    expect(mergeLayoutElements({ base, mine: deleted, theirs: moved }).map((e) => e.id)).toEqual(['b']);
  });

  it('keeps what others added that the editor never saw, and adds the editor’s new elements', () => {
    const merged = mergeLayoutElements({ base, mine: [...base, table('m')], theirs: [...base, table('t')] });
    expect(merged.map((e) => e.id)).toEqual(['a', 'b', 't', 'm']);
  });

  it('lets the later update win when both changed the same attribute', () => {
    const merged = mergeLayoutElements({
      base,
      mine: [table('a', 7), table('b')],
      theirs: [table('a', 9), table('b')],
    });
    expect(merged[0]?.position).toEqual({ x: 7, y: 0 });
  });

  it('without a base keeps the room’s additions, takes the editor’s values and honours deletions', () => {
    const merged = mergeLayoutElements({
      base: null,
      mine: [table('a', 3), table('gone')],
      theirs: [table('a', 1), table('t')],
      deleted: new Set(['gone']),
    });
    expect(merged.map((e) => [e.id, e.position?.x])).toEqual([
      ['a', 3],
      ['t', 0],
    ]);
  });

  it('merges fields: deleted by one and renamed by the other stays deleted', () => {
    const [id, name] = table('a').fields;
    expect(mergeFields([id!, name!], [id!], [id!, { ...name!, name: 'title' }])).toEqual([id]);
    expect(mergeFields([id!, name!], [id!, { ...name!, name: 'title' }], [id!])).toEqual([id]);
  });

  it('compares values whatever the order of their keys', () => {
    expect(sameValue({ a: 1, b: { x: 1, y: 2 } }, { b: { y: 2, x: 1 }, a: 1 })).toBe(true);
    expect(sameValue({ a: 1, c: undefined }, { a: 1 })).toBe(true);
    expect(sameValue({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(sameValue({ a: 1 }, { a: 1, b: 2 })).toBe(false);
  });

  it('has nothing to send after an answer that lists the same layout with its keys in another order', () => {
    const mine = addTableLike();
    let state = syncEdit(syncStart({ elements: [], version: 0, lastModified: null }), [mine]);
    const sent = syncTakeSend(state);
    expect(sent.outgoing).not.toBeNull();
    const reordered = {
      fields: mine.fields.map((f) => ({ type: f.type, name: f.name, id: f.id })),
      position: mine.position,
      type: mine.type,
      name: mine.name,
      id: mine.id,
    };
    state = syncAck(sent.state, { elements: [reordered as LayoutElement], version: 1, lastModified: null });
    expect(syncTakeSend(state).outgoing).toBeNull();
  });

  it('lists deleted ids', () => {
    expect(deletedElementIds(base, [table('b')])).toEqual(['a']);
  });
});

// ---- The model: a server that merges, and two editors that send after each edit and rebase on what they hear.

type Target = string; // "e:<id>:<attr>" or "f:<id>:<fieldId>:<attr>"

interface Edit {
  editor: number;
  target: Target;
  value: unknown;
}

interface Op {
  editor: number;
  kind: 'move' | 'rename' | 'retype' | 'renameField' | 'addField' | 'deleteField' | 'addElement' | 'deleteElement';
  pick: number;
  value: number;
}

interface Server {
  elements: LayoutElement[];
  version: number;
  versions: Map<number, LayoutElement[]>;
  deleted: Set<string>;
}

interface Editor {
  sync: LayoutSync;
  inbox: Array<{ layout: StoredLayout; ack: boolean }>;
}
const clone = <T>(value: T): T => structuredClone(value);

function serverApply(server: Server, baseVersion: number, mine: LayoutElement[]): StoredLayout {
  const base = server.versions.get(baseVersion) ?? null;
  const merged = mergeLayoutElements({ base, mine, theirs: server.elements, deleted: server.deleted });
  for (const id of deletedElementIds(server.elements, merged)) server.deleted.add(id);
  server.elements = merged;
  server.version++;
  server.versions.set(server.version, clone(merged));
  return { elements: clone(merged), version: server.version, lastModified: null };
}

function applyOp(local: LayoutElement[], op: Op, counter: { n: number }, edits: Edit[], deletions: Set<Target>) {
  const el = local.length > 0 ? local[op.pick % local.length] : undefined;
  const record = (target: Target, value: unknown) => edits.push({ editor: op.editor, target, value });
  switch (op.kind) {
    case 'addElement': {
      const id = `n${op.editor}-${counter.n++}`;
      local.push(table(id, op.value));
      record(`e:${id}:exists`, true);
      return;
    }
    case 'deleteElement':
      if (!el) return;
      local.splice(local.indexOf(el), 1);
      deletions.add(`e:${el.id}`);
      return;
    case 'move':
      if (!el) return;
      el.position = { x: op.value, y: op.editor };
      record(`e:${el.id}:position`, el.position);
      return;
    case 'rename':
      if (!el) return;
      el.name = `T${op.editor}-${op.value}`;
      record(`e:${el.id}:name`, el.name);
      return;
    case 'addField': {
      if (!el) return;
      const id = `f${op.editor}-${counter.n++}`;
      el.fields.push({ id, name: id, type: 'string' });
      record(`f:${el.id}:${id}:exists`, true);
      return;
    }
    default: {
      if (!el || el.fields.length === 0) return;
      const field = el.fields[op.value % el.fields.length]!;
      if (op.kind === 'deleteField') {
        el.fields = el.fields.filter((f) => f !== field);
        deletions.add(`f:${el.id}:${field.id}`);
      } else if (op.kind === 'retype') {
        field.type = `t${op.editor}-${op.value}`;
        record(`f:${el.id}:${field.id}:type`, field.type);
      } else {
        field.name = `n${op.editor}-${op.value}`;
        record(`f:${el.id}:${field.id}:name`, field.name);
      }
    }
  }
}

function valueAt(elements: LayoutElement[], target: Target): unknown {
  const parts = target.split(':');
  const el = elements.find((e) => e.id === parts[1]);
  if (parts[0] === 'e') {
    if (parts[2] === 'exists') return el ? true : undefined;
    return el ? (el as unknown as Record<string, unknown>)[parts[2]!] : undefined;
  }
  const field = el?.fields.find((f) => f.id === parts[2]);
  if (parts[3] === 'exists') return field ? true : undefined;
  return field ? (field as Record<string, unknown>)[parts[3]!] : undefined;
}

const opArb = fc.record({
  editor: fc.integer({ min: 0, max: 1 }),
  kind: fc.constantFrom<Op['kind']>(
    'move',
    'rename',
    'retype',
    'renameField',
    'addField',
    'deleteField',
    'addElement',
    'deleteElement',
  ),
  pick: fc.nat(20),
  value: fc.nat(1000),
});
// A step is an edit (sent at once) or one editor reading the next answer in its inbox.
const stepArb = fc.oneof(
  { weight: 3, arbitrary: opArb.map((op) => ({ op })) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 1 }).map((reader) => ({ reader })) },
);

describe('mergeLayoutElements (properties)', () => {
  it('any interleaving of two editors keeps every non-conflicting edit, and deletions stay', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 40 }), (steps) => {
        const initial = [table('a'), table('b', 200), table('c', 400)];
        const server: Server = {
          elements: clone(initial),
          version: 0,
          versions: new Map([[0, clone(initial)]]),
          deleted: new Set(),
        };
        const editors: Editor[] = [0, 1].map(() => ({
          sync: syncStart({ elements: clone(initial), version: 0, lastModified: null }),
          inbox: [],
        }));
        const edits: Edit[] = [];
        const deletions = new Set<Target>();
        const counter = { n: 0 };
        const send = (who: number) => {
          const editor = editors[who]!;
          const { state, outgoing } = syncTakeSend(editor.sync);
          editor.sync = state;
          if (!outgoing) return;
          const layout = serverApply(server, outgoing.version, clone(outgoing.elements));
          editors.forEach((e, i) => {
            e.inbox.push({ layout: clone(layout), ack: i === who });
          });
        };
        const deliver = (who: number) => {
          const editor = editors[who]!;
          const next = editor.inbox.shift();
          if (!next) return;
          editor.sync = next.ack ? syncAck(editor.sync, next.layout) : syncRemote(editor.sync, next.layout);
          send(who);
        };
        for (const step of steps) {
          if ('reader' in step) {
            deliver(step.reader);
            continue;
          }
          const editor = editors[step.op.editor]!;
          const local = clone(editor.sync.local);
          applyOp(local, step.op, counter, edits, deletions);
          editor.sync = syncEdit(editor.sync, local);
          send(step.op.editor);
        }
        // Everyone hears everything and sends what is left.
        for (let round = 0; editors.some((e) => e.inbox.length > 0); round++) {
          if (round > 1000) throw new Error('the editors never settle');
          editors.forEach((e, i) => {
            if (e.inbox.length > 0) deliver(i);
          });
        }
        expect(editors.map((e) => e.sync.local)).toEqual([server.elements, server.elements]);
        // The last edit of each editor on each target, and the targets both editors touched (conflicts).
        const last = new Map<string, Edit>();
        const touchedBy = new Map<Target, Set<number>>();
        for (const edit of edits) {
          last.set(`${edit.editor}|${edit.target}`, edit);
          touchedBy.set(edit.target, new Set([...(touchedBy.get(edit.target) ?? []), edit.editor]));
        }
        const deletedPrefix = (target: Target) => {
          const parts = target.split(':');
          const element = `e:${parts[1]}`;
          return deletions.has(element) || (parts[0] === 'f' && deletions.has(`f:${parts[1]}:${parts[2]}`));
        };
        for (const edit of last.values()) {
          if ((touchedBy.get(edit.target)?.size ?? 0) > 1 || deletedPrefix(edit.target)) continue;
          expect(valueAt(server.elements, edit.target), edit.target).toEqual(edit.value);
        }
        for (const deletion of deletions) {
          expect(valueAt(server.elements, `${deletion}:exists`), deletion).toBeUndefined();
        }
      }),
      { numRuns: 500 },
    );
  });

  it('merging what the room already has changes nothing', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(500), { maxLength: 6 }), (xs) => {
        const elements = xs.map((x, i) => table(`e${i}`, x));
        expect(mergeLayoutElements({ base: elements, mine: elements, theirs: elements })).toEqual(elements);
      }),
    );
  });
});

import type { LayoutElement } from '@basalt/shared';
import { describe, expect, it } from 'vitest';
import { canReference, referenceEdges, setFieldReference } from './layout-edits';

// The canvas's arrows come from the fields' references, matched to elements by name as tables are made.

const el = (id: string, name: string, fields: LayoutElement['fields']): LayoutElement => ({
  id,
  name,
  type: 'table',
  fields,
});

describe('references in a layout', () => {
  const writers = el('w', 'writers', [{ id: 'w1', name: 'id', type: 'integer', primary: true }]);
  const stories = el('s', 'stories', [
    { id: 's1', name: 'id', type: 'integer', primary: true },
    { id: 's2', name: 'writer_id', type: 'integer', references: { table: ' Writers ' } },
    { id: 's3', name: 'lost_id', type: 'integer', references: { table: 'nowhere' } },
    { id: 's4', name: 'parent_id', type: 'integer', references: { table: 'stories', onDelete: 'cascade' } },
  ]);

  it('draws one arrow per reference to an element of the layout, a tree included, none to nothing', () => {
    expect(referenceEdges([writers, stories])).toEqual([
      { id: 'ref-s-s2', source: 's', sourceHandle: 'field-s2', target: 'w' },
      { id: 'ref-s-s4', source: 's', sourceHandle: 'field-s4', target: 's' },
    ]);
  });

  it('sets and removes a reference, keeping its on delete', () => {
    const set = setFieldReference(stories, 's4', 'writers');
    expect(set.fields[3]?.references).toEqual({ table: 'writers', onDelete: 'cascade' });
    expect(setFieldReference(set, 's4', null).fields[3]).toEqual({ id: 's4', name: 'parent_id', type: 'integer' });
  });

  it('lets only number fields that are not the primary key reference a table', () => {
    expect(canReference({ name: 'a', type: 'Integer' })).toBe(true);
    expect(canReference({ name: 'id', type: 'integer', primary: true })).toBe(false);
    expect(canReference({ name: 'b', type: 'string' })).toBe(false);
  });
});

import type { TableSchema } from '@basalt/shared';
import { describe, expect, it } from 'vitest';
import { filterParam, operatorsFor, parseFilterParam, toServerFilters } from './records-filters';

const schema: TableSchema = {
  id: { type: 'number', required: true, unique: true },
  title: { type: 'text', required: false, unique: false },
  qty: { type: 'number', required: false, unique: false },
  paid: { type: 'boolean', required: false, unique: false },
};

describe('the grid’s filters', () => {
  it('go to the server as the public record API’s filters', () => {
    expect(
      toServerFilters(
        [
          { column: 'title', op: 'has', value: 'tea' },
          { column: 'qty', op: 'gte', value: '5' },
          { column: 'paid', op: 'true', value: '' },
          { column: 'title', op: 'empty', value: '' },
          { column: 'qty', op: 'filled', value: '' },
          { column: 'gone', op: 'eq', value: '1' },
        ],
        schema,
      ),
    ).toEqual([
      ['title', 'ilike.*tea*'],
      ['qty', 'gte.5'],
      ['paid', 'is.true'],
      ['title', 'is.null'],
      ['qty', 'not.is.null'],
    ]);
  });

  it('round-trip through the address, values with colons and spaces included', () => {
    const filter = { column: 'title', op: 'eq', value: 'a: b, c' } as const;
    expect(parseFilterParam(filterParam(filter))).toEqual(filter);
    expect(parseFilterParam('paid:true:ignored')).toEqual({ column: 'paid', op: 'true', value: '' });
    for (const bad of ['', 'title', 'title:eq', 'ti-tle:eq:1', 'title:drop:1', '1x:eq:1']) {
      expect(parseFilterParam(bad), bad).toBeNull();
    }
  });

  it('offer the operators that fit a column’s type', () => {
    expect(operatorsFor('text')[0]).toBe('has');
    expect(operatorsFor('boolean')).toEqual(['true', 'false', 'empty', 'filled']);
    expect(operatorsFor('json')).toEqual(['empty', 'filled']);
    expect(operatorsFor('date')).toContain('lt');
  });
});

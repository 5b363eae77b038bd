import { describe, expect, it } from 'vitest';
import { defaultText, defaultValue, paramsForApi, paramsForForm, statementMode } from './sql-function-form-values';

describe('SQL function form values', () => {
  it('reads a default as a value of its type, empty as none', () => {
    expect(defaultValue('number', '')).toBeUndefined();
    expect(defaultValue('number', '10')).toBe(10);
    expect(defaultValue('number', 'ten')).toBe('ten');
    expect(defaultValue('boolean', 'true')).toBe(true);
    expect(defaultValue('json', '{"a":1}')).toEqual({ a: 1 });
    expect(defaultValue('text', '42')).toBe('42');
    expect(defaultValue('text', 'null')).toBeNull();
  });

  it('round-trips parameters between the API and the form', () => {
    const params = [
      { name: 'n', type: 'number' as const, default: 3 },
      { name: 'tags', type: 'array' as const, default: ['a'] },
      { name: 'q', type: 'text' as const },
    ];
    expect(paramsForForm(params).map((p) => p.default)).toEqual(['3', '["a"]', '']);
    expect(paramsForApi(paramsForForm(params))).toEqual(params);
    expect(defaultText('x')).toBe('x');
  });

  it('tells a write statement from a read', () => {
    expect(statementMode('SELECT 1')).toBe('read');
    expect(statementMode('-- note\n  update books SET a = 1')).toBe('write');
    expect(statementMode('/* x */ DELETE FROM t')).toBe('write');
    expect(statementMode('INSERT INTO t (a) VALUES (1)')).toBe('write');
    expect(statementMode('WITH x AS (SELECT 1) SELECT * FROM x')).toBe('read');
  });
});

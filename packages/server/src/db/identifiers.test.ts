import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  assertIdentifier,
  InvalidIdentifierError,
  identifierProblem,
  isValidIdentifier,
  quoteIdentifier,
  uniqueIndexName,
  userTableName,
} from './identifiers.js';

describe('assertIdentifier', () => {
  const cases: Array<[string, unknown, 'table' | 'column', string | null]> = [
    ['simple table', 'orders', 'table', null],
    ['mixed case and digits', 'Orders_2024', 'table', null],
    ['63 characters', `a${'b'.repeat(62)}`, 'table', null],
    ['one-letter column', 'x', 'column', null],
    ['too short table', 'ab', 'table', 'Table name must be at least 3 characters'],
    ['empty table', '', 'table', 'Table name is required'],
    ['empty column', '', 'column', 'Column name is required'],
    ['64 characters', `a${'b'.repeat(63)}`, 'column', 'Column name cannot exceed 63 characters'],
    [
      'starts with digit',
      '1abc',
      'table',
      'Table name must start with a letter and contain only letters, numbers and underscores',
    ],
    [
      'starts with underscore',
      '_abc',
      'column',
      'Column name must start with a letter and contain only letters, numbers and underscores',
    ],
    [
      'SQL injection',
      'a"; drop table x;--',
      'table',
      'Table name must start with a letter and contain only letters, numbers and underscores',
    ],
    [
      'quote only',
      '"',
      'column',
      'Column name must start with a letter and contain only letters, numbers and underscores',
    ],
    [
      'unicode letter',
      'naïve',
      'column',
      'Column name must start with a letter and contain only letters, numbers and underscores',
    ],
    [
      'emoji',
      'tbl😀',
      'table',
      'Table name must start with a letter and contain only letters, numbers and underscores',
    ],
    [
      'space',
      'my col',
      'column',
      'Column name must start with a letter and contain only letters, numbers and underscores',
    ],
    [
      'hyphen',
      'my-table',
      'table',
      'Table name must start with a letter and contain only letters, numbers and underscores',
    ],
    [
      'dot',
      'public.users',
      'table',
      'Table name must start with a letter and contain only letters, numbers and underscores',
    ],
    [
      'newline',
      'abc\n',
      'table',
      'Table name must start with a letter and contain only letters, numbers and underscores',
    ],
    [
      'NUL',
      'abc\0',
      'column',
      'Column name must start with a letter and contain only letters, numbers and underscores',
    ],
    ['not a string', 42, 'column', 'Column name is required'],
    ['null', null, 'table', 'Table name is required'],
  ];

  it.each(cases)('%s', (_label, name, kind, problem) => {
    expect(identifierProblem(name, kind)).toBe(problem);
    expect(isValidIdentifier(name, kind)).toBe(problem === null);
    if (problem === null) {
      expect(() => assertIdentifier(name, kind)).not.toThrow();
    } else {
      expect(() => assertIdentifier(name, kind)).toThrow(InvalidIdentifierError);
      expect(() => assertIdentifier(name, kind)).toThrow(problem);
    }
  });

  it('carries the kind and the name on the error', () => {
    try {
      assertIdentifier('1x', 'column');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidIdentifierError);
      expect((error as InvalidIdentifierError).kind).toBe('column');
      expect((error as InvalidIdentifierError).identifier).toBe('1x');
    }
  });
});

describe('quoteIdentifier', () => {
  it.each([
    ['orders', '"orders"'],
    ['t_12', '"t_12"'],
    ['a"b', '"a""b"'],
    ['a"; drop table x;--', '"a""; drop table x;--"'],
    ['""', '""""""'],
    ['naïve', '"naïve"'],
    ["it's", '"it\'s"'],
  ])('quotes %j as %s', (name, quoted) => {
    expect(quoteIdentifier(name)).toBe(quoted);
  });

  it('refuses names no engine can hold', () => {
    expect(() => quoteIdentifier('')).toThrow('cannot be empty');
    expect(() => quoteIdentifier('a\0b')).toThrow('NUL');
    expect(() => quoteIdentifier('a'.repeat(64))).toThrow('63 bytes');
    // 32 two-byte characters are 64 bytes: over PostgreSQL's limit although only 32 characters.
    expect(() => quoteIdentifier('é'.repeat(32))).toThrow('63 bytes');
    expect(quoteIdentifier('a'.repeat(63))).toBe(`"${'a'.repeat(63)}"`);
  });

  it('always yields one quoted token that unquotes to the name', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 20 }), (name) => {
        fc.pre(!name.includes('\0'));
        const quoted = quoteIdentifier(name);
        expect(quoted.startsWith('"') && quoted.endsWith('"')).toBe(true);
        const inner = quoted.slice(1, -1);
        // Every quote inside comes in pairs, so the token cannot end early.
        expect(inner.replaceAll('""', '')).not.toContain('"');
        expect(inner.replaceAll('""', '"')).toBe(name);
      }),
    );
  });
});

describe('userTableName', () => {
  it.each<[string | number, string]>([
    [7, 't_7'],
    [0, 't_0'],
    ['42', 't_42'],
    ['8a4c1f6e-3b2d-4c1e-9f1a-2b3c4d5e6f70', 't_8a4c1f6e_3b2d_4c1e_9f1a_2b3c4d5e6f70'],
    ['8A4C1F6E-3B2D-4C1E-9F1A-2B3C4D5E6F70', 't_8a4c1f6e_3b2d_4c1e_9f1a_2b3c4d5e6f70'],
    ['abc_123', 't_abc_123'],
  ])('%j → %s', (id, name) => {
    expect(userTableName(id)).toBe(name);
  });

  it.each<[string | number]>([
    [-1],
    [1.5],
    [Number.NaN],
    [Number.MAX_SAFE_INTEGER + 1],
    [''],
    ['a"; drop table x;--'],
    ['ABC'],
    ['a-b'],
    ['x'.repeat(41)],
    ['1 or 1=1'],
  ])('refuses %j', (id) => {
    expect(() => userTableName(id)).toThrow(InvalidIdentifierError);
  });
});

describe('uniqueIndexName', () => {
  it('follows PostgreSQL constraint naming', () => {
    expect(uniqueIndexName(7, 'email')).toBe('t_7_email_key');
  });

  it('stays within 63 bytes and distinct for long names', () => {
    const id = '8a4c1f6e-3b2d-4c1e-9f1a-2b3c4d5e6f70';
    const a = uniqueIndexName(id, `a${'x'.repeat(61)}a`);
    const b = uniqueIndexName(id, `a${'x'.repeat(61)}b`);
    expect(a.length).toBe(63);
    expect(b.length).toBe(63);
    expect(a).not.toBe(b);
    expect(a.endsWith('_key')).toBe(true);
  });

  it('refuses an invalid column name', () => {
    expect(() => uniqueIndexName(1, 'a"b')).toThrow(InvalidIdentifierError);
  });
});

import { describe, expect, it } from 'vitest';
import { parseId, UNKNOWN_ID } from './ids.js';

describe('parseId', () => {
  it.each([
    ['1', 1],
    ['42', 42],
    ['9007199254740991', 9007199254740991],
  ])('reads %s as %d', (text, id) => {
    expect(parseId(text)).toBe(id);
  });

  it.each([
    undefined,
    '',
    '0',
    '-1',
    '01',
    '1.5',
    '1e3',
    ' 1',
    'abc',
    '9007199254740993',
    '12345678901234567',
    '1\u0000',
  ])('reads %j as no id', (text) => {
    expect(parseId(text)).toBe(UNKNOWN_ID);
  });
});

import { describe, expect, it } from 'vitest';
import { compileLinearRegex, InvalidPatternError, linearRegexRefusal, MAX_REGEX_LENGTH } from './regex-pattern.js';

describe('compileLinearRegex', () => {
  // [pattern, case-insensitive, value, matches]
  const cases: Array<[string, boolean, string, boolean]> = [
    ['^[A-Z]', false, 'Apple', true],
    ['^[A-Z]', false, 'apple', false],
    ['AN+A$', true, 'Banana', true],
    ['AN+A$', false, 'Banana', false],
    ['b.n', false, 'banana', true],
    ['a.b', false, 'a\nb', true],
    ['^\\d{3}-\\d{4}$', false, '555-1234', true],
    ['[[:alpha:]]+', false, '123', false],
    ['\\p{Greek}', false, 'λ', true],
  ];
  it.each(cases)('%j (ci %s) on %j → %s', (pattern, ci, value, matches) => {
    expect(compileLinearRegex(pattern, ci).test(value)).toBe(matches);
  });

  it.each([
    ['a backreference', '(a)\\1'],
    ['a lookahead', 'a(?=b)'],
    ['a negative lookahead', 'a(?!b)'],
    ['a lookbehind', '(?<=a)b'],
    ['a broken group', '(['],
  ])('refuses %s with a reason and a hint', (_name, pattern) => {
    const refusal = linearRegexRefusal(pattern, false);
    expect(refusal?.message).toMatch(/^invalid regular expression: /);
    expect(refusal?.hint).toMatch(/backreferences/);
    expect(() => compileLinearRegex(pattern, false)).toThrow(InvalidPatternError);
  });

  it('refuses patterns longer than MAX_REGEX_LENGTH', () => {
    expect(linearRegexRefusal('a'.repeat(MAX_REGEX_LENGTH), false)).toBeNull();
    expect(linearRegexRefusal('a'.repeat(MAX_REGEX_LENGTH + 1), false)?.message).toMatch(/at most 1000/);
  });

  it('matches catastrophic-backtracking patterns in linear time', () => {
    const value = `${'a'.repeat(100_000)}!`;
    const started = performance.now();
    expect(compileLinearRegex('^(a+)+$', false).test(value)).toBe(false);
    expect(compileLinearRegex('^(a|aa)+$', true).test(value)).toBe(false);
    expect(compileLinearRegex('(a*)*b', false).test(value)).toBe(false);
    expect(compileLinearRegex('^(a+)+!$', false).test(value)).toBe(true);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

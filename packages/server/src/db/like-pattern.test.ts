import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileLike, likeMatches } from './like-pattern.js';

// [pattern, value, like, ilike]: what PostgreSQL's LIKE and ILIKE answer.
const cases: Array<[string, string, boolean, boolean]> = [
  ['', '', true, true],
  ['', 'a', false, false],
  ['abc', 'abc', true, true],
  ['abc', 'ABC', false, true],
  ['abc', 'abcd', false, false],
  ['%', '', true, true],
  ['%', 'anything at all', true, true],
  ['%%%', 'x', true, true],
  ['a%', 'apple', true, true],
  ['a%', 'Apple', false, true],
  ['%e', 'apple', true, true],
  ['%pl%', 'apple', true, true],
  ['%pl%', 'plum', true, true],
  ['%x%', 'apple', false, false],
  ['a%e', 'ae', true, true],
  ['a%e', 'a', false, false],
  ['a%b%c', 'aXbYc', true, true],
  ['a%b%c', 'acb', false, false],
  ['%a%a%', 'banana', true, true],
  ['%a%a%a%a%', 'banana', false, false],
  ['_', 'a', true, true],
  ['_', '', false, false],
  ['_', 'ab', false, false],
  ['___', 'abc', true, true],
  ['a_c', 'abc', true, true],
  ['a_c', 'ac', false, false],
  ['%_', '', false, false],
  ['%_', 'x', true, true],
  ['_%_', 'x', false, false],
  ['_%_', 'xy', true, true],
  ['%b_n%', 'banana', true, true],
  ['x\\%y', 'x%y', true, true],
  ['x\\%y', 'xzy', false, false],
  ['x\\_y', 'x_y', true, true],
  ['x\\_y', 'xzy', false, false],
  ['a\\\\b', 'a\\b', true, true],
  ['a\\', 'a\\', true, true],
  ['\\a', 'a', true, true],
  ['%\\%', '100%', true, true],
  ['%\\%', '100', false, false],
  ['_', '😀', true, true],
  ['a_b', 'a😀b', true, true],
  ['%😀%', 'x😀y', true, true],
  ['ÉTÉ', 'été', false, true],
  ['%ß%', 'STRASSE', false, false],
  ['ΟΔΟΣ', 'οδοσ', false, true],
  ['%ab%ab%', 'xxabxxab', true, true],
  ['%aab', 'aaab', true, true],
  ['%abab%', 'aababab', true, true],
];

// A literal long segment exercises the multi-word search (more than 32 characters between two `%`).
const longSegment = 'abcdefghij_klmnopqrst_uvwxyz0123456789_ABCDEFGHIJ';

describe('compileLike', () => {
  it.each(cases)('%j matches %j: like %s, ilike %s', (pattern, value, like, ilike) => {
    expect(compileLike(pattern, false).test(value)).toBe(like);
    expect(compileLike(pattern, true).test(value)).toBe(ilike);
  });

  it('finds segments longer than 32 characters', () => {
    const text = longSegment.replaceAll('_', '-');
    expect(compileLike(`%${longSegment}%`, false).test(`xx${text}yy`)).toBe(true);
    expect(compileLike(`%${longSegment}%`, false).test(`xx${text.slice(1)}yy`)).toBe(false);
    expect(compileLike(`%x%${longSegment}%`, true).test(`x${text.toUpperCase()}`)).toBe(true);
  });

  it('agrees with a backtracking reference on random short patterns', () => {
    const alphabet = fc.constantFrom('a', 'b', 'A', '%', '_', '\\');
    const pattern = fc.array(alphabet, { maxLength: 8 }).map((cs) => cs.join(''));
    const value = fc.array(fc.constantFrom('a', 'b', 'A', '%', '_', '\\'), { maxLength: 10 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(pattern, value, fc.boolean(), (p, v, ci) => {
        expect(compileLike(p, ci).test(v)).toBe(referenceLike(p, v, ci));
      }),
      { numRuns: 2000 },
    );
  });

  it('stays linear on patterns that make a backtracking matcher explode', () => {
    const value = 'a'.repeat(100_000);
    const started = performance.now();
    expect(likeMatches(value, '%a%a%a%a%a%a%a%a%a%a%b', false)).toBe(false);
    expect(likeMatches(value, `${'%_'.repeat(50)}%b`, true)).toBe(false);
    expect(likeMatches(value, `%${'a'.repeat(40)}b%`, false)).toBe(false);
    expect(likeMatches(value, '%a%a%a%a%a%', false)).toBe(true);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

/** referenceLike is the obvious recursive matcher: exponential at worst, fine for tiny inputs. */
function referenceLike(pattern: string, value: string, ci: boolean): boolean {
  const tokens: Array<'%' | '_' | string> = [];
  const p = ci ? pattern.toLowerCase() : pattern;
  for (let i = 0; i < p.length; i++) {
    const c = p[i] as string;
    if (c === '\\' && i + 1 < p.length) tokens.push(`=${p[++i]}`);
    else if (c === '%' || c === '_') tokens.push(c);
    else tokens.push(`=${c}`);
  }
  const text = ci ? value.toLowerCase() : value;
  const at = (t: number, s: number): boolean => {
    if (t === tokens.length) return s === text.length;
    const token = tokens[t] as string;
    if (token === '%') return at(t + 1, s) || (s < text.length && at(t, s + 1));
    if (s >= text.length) return false;
    return (token === '_' || token.slice(1) === text[s]) && at(t + 1, s + 1);
  };
  return at(0, 0);
}

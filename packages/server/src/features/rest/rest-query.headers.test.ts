import { describe, expect, it } from 'vitest';
import { errorOf } from '../../testing/rest-query.fixtures.js';
import {
  checkProfile,
  headerValue,
  parseAccept,
  parsePrefer,
  parseRangeHeader,
  preferenceApplied,
} from './rest-query.headers.js';
import type { Preferences } from './rest-query.types.js';

const none: Preferences = { return: null, count: null, resolution: null, missing: null };

describe('parsePrefer', () => {
  it.each<[string | undefined, Partial<Preferences>]>([
    [undefined, {}],
    ['', {}],
    ['return=minimal', { return: 'minimal' }],
    ['return=representation', { return: 'representation' }],
    ['return=headers-only', { return: 'headers-only' }],
    ['count=exact', { count: 'exact' }],
    ['count=planned', { count: 'planned' }],
    ['count=estimated', { count: 'estimated' }],
    [
      'resolution=merge-duplicates, return=representation',
      { resolution: 'merge-duplicates', return: 'representation' },
    ],
    [
      'resolution=ignore-duplicates, count=exact, missing=default',
      { resolution: 'ignore-duplicates', count: 'exact', missing: 'default' },
    ],
    ['missing=null', { missing: 'null' }],
    ['RETURN=Representation', { return: 'representation' }],
    ['return=representation,return=minimal', { return: 'representation' }],
    ['return=bogus, count=exact', { count: 'exact' }],
    ['tx=rollback, handling=strict, max-affected=5, timezone=UTC', {}],
    ['  count=exact  ,  , junk', { count: 'exact' }],
  ])('%j', (header, expected) => {
    expect(parsePrefer(header)).toEqual({ ...none, ...expected });
  });

  it('reads repeated Prefer headers joined as Node joins them', () => {
    const value = headerValue({ prefer: ['return=representation', 'count=exact'] }, 'Prefer');
    expect(value).toBe('return=representation, count=exact');
    expect(parsePrefer(value)).toEqual({ ...none, return: 'representation', count: 'exact' });
  });

  it('preferenceApplied lists what was honoured', () => {
    expect(preferenceApplied({ ...none, return: 'representation', count: 'exact' })).toBe(
      'return=representation, count=exact',
    );
    expect(preferenceApplied(none)).toBe('');
  });
});

describe('headerValue', () => {
  it('reads Node header objects case-insensitively and fetch Headers', () => {
    expect(headerValue({ Accept: 'text/csv' }, 'accept')).toBe('text/csv');
    expect(headerValue(new Headers({ accept: 'text/csv' }), 'Accept')).toBe('text/csv');
    expect(headerValue(undefined, 'accept')).toBeUndefined();
    expect(headerValue({}, 'accept')).toBeUndefined();
  });
});

describe('parseAccept', () => {
  it.each<[string | undefined, 'json' | 'object' | 'csv']>([
    [undefined, 'json'],
    ['', 'json'],
    ['application/json', 'json'],
    ['*/*', 'json'],
    ['application/*', 'json'],
    ['application/vnd.pgrst.object+json', 'object'],
    ['application/vnd.pgrst.object+json;nulls=stripped', 'object'],
    ['application/vnd.pgrst.object', 'object'],
    ['text/csv', 'csv'],
    ['Application/JSON; charset=utf-8', 'json'],
    ['text/html, application/json', 'json'],
    ['application/json;q=0.5, text/csv', 'csv'],
    ['text/csv;q=0, application/json', 'json'],
  ])('%j → %s', (header, format) => {
    expect(parseAccept(header)).toBe(format);
  });

  it('answers PGRST107 when nothing offered can be produced', () => {
    expect(errorOf(() => parseAccept('application/xml'))).toEqual({
      status: 406,
      code: 'PGRST107',
      message: 'None of these media types are available: application/xml',
      details: null,
      hint: null,
    });
    expect(errorOf(() => parseAccept('text/html, application/geo+json')).message).toBe(
      'None of these media types are available: text/html, application/geo+json',
    );
  });
});

describe('checkProfile', () => {
  it('accepts public or no profile', () => {
    expect(() => checkProfile({ 'accept-profile': 'public', 'content-profile': 'public' })).not.toThrow();
    expect(() => checkProfile({})).not.toThrow();
  });

  it.each(['accept-profile', 'content-profile'])('refuses another schema in %s with PGRST106', (name) => {
    expect(errorOf(() => checkProfile({ [name]: 'private' }))).toEqual({
      status: 406,
      code: 'PGRST106',
      message: 'Invalid schema: private',
      details: null,
      hint: 'Only the following schemas are exposed: public',
    });
  });
});

describe('parseRangeHeader', () => {
  it.each<[string | undefined, string | undefined, { lower: number; upper: number | null } | null]>([
    [undefined, undefined, null],
    ['0-9', undefined, { lower: 0, upper: 9 }],
    ['0-9', 'items', { lower: 0, upper: 9 }],
    ['10-', 'items', { lower: 10, upper: null }],
    ['items=5-6', undefined, { lower: 5, upper: 6 }],
    ['5-5', 'items', { lower: 5, upper: 5 }],
    ['abc', 'items', null],
    ['-5', 'items', null],
    ['0-9', 'bytes', null],
  ])('%j (%s)', (range, unit, expected) => {
    expect(parseRangeHeader(range, unit)).toEqual(expected);
  });

  it('answers PGRST103 when the lower bound passes the upper one', () => {
    expect(errorOf(() => parseRangeHeader('9-2', 'items'))).toEqual({
      status: 416,
      code: 'PGRST103',
      message: 'Requested range not satisfiable',
      details: 'The lower boundary must be lower than or equal to the upper boundary in the Range header.',
      hint: null,
    });
  });
});

import { describe, expect, it } from 'vitest';
import { contextJson, ENTRY_LIMITS, REDACTED, redactText, redactValue } from './redaction.js';

describe('log redaction', () => {
  it.each([
    ['Authorization: Bearer eyJhbGciOi.eyJzdWIiOi.sig', `Authorization: Bearer ${REDACTED}`],
    ['basic dXNlcjpwYXNz failed', `basic ${REDACTED} failed`],
    ['token eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln leaked', `token ${REDACTED} leaked`],
    ['key bsk_AbCdEf0123456789 used', `key bsk_${REDACTED} used`],
    ['login password=hunter2 failed', `login password=${REDACTED} failed`],
    ['{"newPassword": "s3cret!"}', `{"newPassword": ${REDACTED}}`],
    ['GET /verify?type=signup&token=abc123&redirect_to=x', `GET /verify?type=signup&token=${REDACTED}&redirect_to=x`],
    ['?apikey=xyz', `?apikey=${REDACTED}`],
    ['client_secret: abc', `client_secret: ${REDACTED}`],
    ['nothing to hide here: 42 rows', 'nothing to hide here: 42 rows'],
    ['GET /api/tables 200', 'GET /api/tables 200'],
  ])('masks %s', (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });

  it('removes NUL characters and cuts long text', () => {
    expect(redactText('a\u0000b')).toBe('ab');
    expect(redactText('y'.repeat(50), 10)).toBe(`${'y'.repeat(10)}…`);
    expect(redactText('password=hunter2', 12)).toBe(`password=${REDACTED}…`);
  });

  it('stays fast on long hostile text', () => {
    const started = performance.now();
    redactText(`${'token'.repeat(100_000)}=`);
    redactText('a-token-'.repeat(100_000));
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('replaces values under secret-sounding keys at any depth', () => {
    expect(
      redactValue({
        Authorization: 'x',
        headers: { cookie: 'c', 'x-api-key': 'k', accept: 'json' },
        list: [{ refresh_token: 't' }, 'password=p'],
        privateJwk: { d: 'secret' },
        count: 3,
        ok: true,
        nothing: null,
        when: new Date('2030-01-01T00:00:00Z'),
        big: 10n,
      }),
    ).toEqual({
      Authorization: REDACTED,
      headers: { cookie: REDACTED, 'x-api-key': REDACTED, accept: 'json' },
      list: [{ refresh_token: REDACTED }, `password=${REDACTED}`],
      privateJwk: REDACTED,
      count: 3,
      ok: true,
      nothing: null,
      when: '2030-01-01T00:00:00.000Z',
      big: '10',
    });
  });

  it('bounds depth, width and the stored JSON', () => {
    const deep = { a: { b: { c: { d: { e: { f: 1 } } } } } };
    expect(JSON.parse(contextJson(deep))).toEqual({ a: { b: { c: { d: { e: '[too deep]' } } } } });
    const wide = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`k${i}`, i]));
    expect(Object.keys(JSON.parse(contextJson(wide)))).toHaveLength(ENTRY_LIMITS.items);
    const long = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, 'z'.repeat(1500)]));
    const stored = JSON.parse(contextJson(long));
    expect(stored).toMatchObject({ truncated: true, preview: expect.any(String) });
    expect(contextJson(undefined)).toBe('{}');
  });

  it('copes with cycles', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    expect(() => contextJson(cyclic)).not.toThrow();
  });
});

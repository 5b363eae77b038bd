import type { Session } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { assuranceLevelOf, sessionNeedsMfa } from './auth-user';

// The console's second sign-in step is owed while the session is aal1 and the user has a verified factor.

const tokenWith = (claims: Record<string, unknown>) =>
  `e30.${btoa(JSON.stringify(claims)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}.sig`;

const sessionOf = (aal: string, factors: Array<{ status: string }>) =>
  ({
    access_token: tokenWith({ aal, sub: 'u' }),
    user: { id: 'u', factors: factors.map((f, i) => ({ id: `f${i}`, factor_type: 'totp', ...f })) },
  }) as unknown as Session;

describe('sessionNeedsMfa', () => {
  it.each([
    ['aal1 with a verified factor', 'aal1', [{ status: 'verified' }], true],
    ['aal2 with a verified factor', 'aal2', [{ status: 'verified' }], false],
    ['aal1 with only an unverified factor', 'aal1', [{ status: 'unverified' }], false],
    ['aal1 without factors', 'aal1', [], false],
  ])('%s', (_name, aal, factors, expected) => {
    expect(sessionNeedsMfa(sessionOf(aal, factors))).toBe(expected);
  });

  it('is false without a session, and reads aal1 from a token it cannot read', () => {
    expect(sessionNeedsMfa(null)).toBe(false);
    expect(assuranceLevelOf('not-a-jwt')).toBe('aal1');
  });
});

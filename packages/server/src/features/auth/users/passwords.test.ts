import { describe, expect, it } from 'vitest';
import { hashPassword, passwordWeakness, verifyPassword } from './passwords.js';

describe('passwords', () => {
  it('hashes with argon2id and verifies', async () => {
    const hash = await hashPassword('Str0ng!pass');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hash, 'Str0ng!pass')).toBe(true);
    expect(await verifyPassword(hash, 'str0ng!pass')).toBe(false);
  });

  it('answers false for a missing or broken hash instead of throwing', async () => {
    expect(await verifyPassword(null, 'anything')).toBe(false);
    expect(await verifyPassword('not-a-hash', 'anything')).toBe(false);
  });

  it.each([
    ['Str0ng!pass', null],
    ['Sh0rt!', { reasons: ['length'], message: 'Password must be at least 8 characters.' }],
    ['nouppercase1!', { reasons: ['characters'], message: 'Password must contain at least one uppercase letter.' }],
    ['aA1!'.repeat(26), { reasons: ['length'], message: 'Password is too long.' }],
    [
      'password',
      {
        reasons: ['characters'],
        message:
          'Password must contain at least one uppercase letter. Password must contain at least one number. Password must contain at least one special character.',
      },
    ],
  ])('describes the weakness of %s', (password, weakness) => {
    expect(passwordWeakness(password)).toEqual(weakness);
  });
});

import { describe, expect, it } from 'vitest';
import { customExpiryError, lifetimeOf } from './StorageSignDialog';
import { bucketAccessOf, DEFAULT_BUCKET_ACCESS, describeBucketAccess, describeBucketRule } from './storage-rules';

describe('bucket rules in plain words', () => {
  it.each([
    ['read', 'public', 'Anyone can read files, even signed out'],
    ['read', 'nobody', 'Only you (and your server, with the app service key) can read files'],
    ['insert', 'own', 'Signed-in users can upload to their own folder'],
    ['update', 'own', 'Signed-in users can replace files in their own folder'],
    ['delete', 'authenticated', 'Signed-in users can delete files'],
  ] as const)('%s by %s reads “%s”', (op, rule, text) => {
    expect(describeBucketRule(op, rule)).toBe(text);
  });

  it('sums a bucket up, operations of one rule together', () => {
    expect(describeBucketAccess(DEFAULT_BUCKET_ACCESS)).toBe(
      'Only you (and your server, with the app service key) can read, upload, replace or delete files',
    );
    expect(describeBucketAccess({ read: 'public', insert: 'own', update: 'own', delete: 'nobody' })).toBe(
      'Anyone can read; signed-in users (in their own folder) can upload or replace; only you can delete',
    );
  });

  it('reads what the server answers; anything unknown is nobody', () => {
    expect(bucketAccessOf({ read: 'public', insert: 'sometimes', update: 7 })).toEqual({
      ...DEFAULT_BUCKET_ACCESS,
      read: 'public',
    });
    expect(bucketAccessOf(undefined)).toEqual(DEFAULT_BUCKET_ACCESS);
  });
});

describe('a signed URL’s custom expiry', () => {
  it.each([
    ['', 'Enter a number of seconds'],
    ['abc', 'Enter a whole number of seconds, such as 300'],
    ['1.5', 'Enter a whole number of seconds, such as 300'],
    ['-5', 'Enter a whole number of seconds, such as 300'],
    ['0', 'A signed URL must work for at least 1 second'],
    ['315360001', 'At most 315,360,000 seconds (ten years)'],
  ])('“%s” is refused: %s', (text, message) => {
    expect(customExpiryError(text)).toBe(message);
  });

  it('takes whole seconds and says them for people', () => {
    expect(customExpiryError(' 90 ')).toBeUndefined();
    expect(lifetimeOf(90)).toBe('90 seconds');
    expect(lifetimeOf(3600)).toBe('1 hour');
  });
});

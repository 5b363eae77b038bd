import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** randomToken returns an unguessable URL-safe string of `bytes` random bytes. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** sha256 hashes a token for storage; tokens are random, so a fast hash is enough. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** safeEqual compares two strings in constant time. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** hmacToken derives a URL-safe token from a secret and a value (the same inputs give the same token). */
export function hmacToken(secret: string, value: string): string {
  return createHmac('sha256', secret).update(value).digest('base64url');
}

/** randomDigits returns a string of `count` uniformly random decimal digits (one-time codes). */
export function randomDigits(count = 6): string {
  let digits = '';
  for (let i = 0; i < count; i++) digits += String(randomInt(10));
  return digits;
}

/**
 * jwtSignatureOf is a JWT's last part. A cache of tokens is keyed by it: its few dozen characters hash far faster
 * than the whole token (a fresh string per request), and an entry holds only for exactly the token it was made for.
 */
export const jwtSignatureOf = (token: string) => token.slice(token.lastIndexOf('.') + 1);

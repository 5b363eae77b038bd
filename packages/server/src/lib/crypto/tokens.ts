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

/** uuidFromHash shapes a stable, UUID-formatted id from any string (RFC 9562 version-8 layout). */
export function uuidFromHash(value: string): string {
  const hex = createHash('sha256').update(value).digest('hex').slice(0, 32).split('');
  hex[12] = '8';
  hex[16] = ((Number.parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * jwtSignatureOf is a JWT's last part. A cache of tokens is keyed by it: its few dozen characters hash far faster
 * than the whole token (a fresh string per request), and an entry holds only for exactly the token it was made for.
 */
export const jwtSignatureOf = (token: string) => token.slice(token.lastIndexOf('.') + 1);

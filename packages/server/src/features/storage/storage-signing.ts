import { createHmac } from 'node:crypto';
import type { Db } from '../../db/database.js';
import { writeSettingOnce } from '../../db/instance-settings.store.js';
import { randomToken, safeEqual } from '../../lib/crypto/tokens.js';
import { badSignature } from './storage-errors.js';

// Signed URLs: a token naming the account, the bucket, the object and an expiry (and whether it allows an
// upload), with an HMAC under a secret made once per instance and kept in the database, so that every node
// accepts what another signed. The URL carries no key: the token alone says whose object it is.

const SETTING = 'storage_signing_secret';

/** SignedClaims are what a signed URL's token grants. */
export interface SignedClaims {
  /** a: the account, b: the bucket's name, n: the object's name, e: expiry (seconds), u: upload (1), x: upsert (1). */
  a: string;
  b: string;
  n: string;
  e: number;
  u?: 1;
  x?: 1;
}

/** Signer signs and checks signed URLs' tokens. */
export interface Signer {
  sign(claims: SignedClaims): Promise<string>;
  /** verify checks a token for a bucket and object; throws 400 InvalidSignature (or "jwt expired"). */
  verify(token: unknown, bucket: string, name: string, upload: boolean): Promise<SignedClaims>;
}

/** createSigner makes the signer of one database (its secret read once). */
export function createSigner(db: Db): Signer {
  let secret: Promise<string> | null = null;
  const key = () => {
    secret ??= writeSettingOnce(db.kysely, SETTING, randomToken(32));
    return secret;
  };
  const mac = async (body: string) =>
    createHmac('sha256', await key())
      .update(body)
      .digest('base64url');
  return {
    async sign(claims) {
      const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
      return `${body}.${await mac(body)}`;
    },
    async verify(token, bucket, name, upload) {
      if (typeof token !== 'string' || token.length > 4096) throw badSignature('Missing or invalid token');
      const dot = token.indexOf('.');
      const body = token.slice(0, dot);
      if (dot <= 0 || !safeEqual(token.slice(dot + 1), await mac(body))) throw badSignature();
      let claims: SignedClaims;
      try {
        claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      } catch {
        throw badSignature();
      }
      if (claims.e * 1000 < Date.now()) throw badSignature('jwt expired');
      if (claims.b !== bucket || claims.n !== name || Boolean(claims.u) !== upload) {
        throw badSignature('The token is for another object');
      }
      return claims;
    },
  };
}

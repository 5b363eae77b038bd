import { randomUUID } from 'node:crypto';
import { ACCESS_TOKEN_TTL_SECONDS } from '@basalt/shared';
import {
  type CryptoKey,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  errors as joseErrors,
  jwtVerify,
  SignJWT,
} from 'jose';
import type { Kysely } from 'kysely';
import type { SystemDatabase } from '../../../db/schema.js';

export { TokenError, type TokenRole, type VerifiedToken } from '../../../lib/crypto/token-verifier.js';

import { readSetting, writeSettingOnce } from '../../../db/instance-settings.store.js';
import { TokenError, type TokenVerifier, type VerifiedToken } from '../../../lib/crypto/token-verifier.js';
import { insertSigningKey, listSigningKeys } from './signing-keys.store.js';

const ALG = 'ES256';
// The anon and service keys name the instance itself as their issuer; access tokens name its auth URL
// (`<instance URL>/auth/v1`, as GoTrue does: token-issuer.ts). A token of this instance's key with any other issuer, or without an
// expiry, was not made by this instance for this purpose and is refused.
const KEY_ISSUER = 'basalt';
// The anon and service keys live as long as the instance's signing key; ten years like Supabase's.
const KEY_TTL_SECONDS = 10 * 365 * 24 * 3600;
// Verified access tokens remembered per process; at 1 h each this covers a busy instance's active users.
const VERIFIED_CACHE_SIZE = 10_000;

/** AccessTokenInput is what an access token says about its user and session. */
export interface AccessTokenInput {
  userId: string;
  sessionId: string;
  email: string;
  appMetadata: Record<string, unknown>;
  userMetadata: Record<string, unknown>;
  amr: Array<{ method: string; timestamp: number }>;
  /** The session's assurance level: aal1, or aal2 after an MFA factor was verified in it. */
  aal?: 'aal1' | 'aal2';
  /** An anonymous user (signInAnonymously). */
  isAnonymous?: boolean;
  /** The app of an end user (its `ref` claim); absent for console accounts. */
  ref?: string;
  /** Lifetime in seconds (an app's setting); default ACCESS_TOKEN_TTL_SECONDS. */
  ttlSeconds?: number;
}

/** TokenService signs and verifies the instance's JWTs. */
export interface TokenService extends TokenVerifier {
  /** issuer is the `iss` of the access tokens this node signs (features/auth/sessions/token-issuer.ts). */
  issuer: string;
  anonKey: string;
  serviceKey: string;
  /** jwks is the public JWK set. */
  jwks(): { keys: JWK[] };
  signAccessToken(input: AccessTokenInput): Promise<{ token: string; expiresIn: number; expiresAt: number }>;
  /** signAppKey signs an app's anon or service key: the instance's key claims plus `ref` (features/apps). */
  signAppKey(ref: string, role: 'anon' | 'service_role'): Promise<string>;
  /** reload reads the signing keys and the instance's keys again (after a restore replaced the database). */
  reload(): Promise<void>;
}

interface LoadedKey {
  kid: string;
  publicJwk: JWK;
  publicKey: CryptoKey | Uint8Array;
  privateKey: CryptoKey | Uint8Array | null;
}

async function loadKeys(db: Kysely<SystemDatabase>): Promise<LoadedKey[]> {
  const rows = await listSigningKeys(db);
  return Promise.all(
    rows.map(async (row) => {
      const publicJwk = JSON.parse(row.public_jwk) as JWK;
      return {
        kid: row.kid,
        publicJwk,
        publicKey: await importJWK(publicJwk, row.alg),
        privateKey: row.retired_at ? null : await importJWK(JSON.parse(row.private_jwk) as JWK, row.alg),
      };
    }),
  );
}

async function createSigningKey(db: Kysely<SystemDatabase>): Promise<void> {
  const { privateKey, publicKey } = await generateKeyPair(ALG, { extractable: true });
  const kid = randomUUID();
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: ALG, use: 'sig', key_ops: ['verify'], ext: true };
  await insertSigningKey(db, {
    kid,
    alg: ALG,
    private_jwk: JSON.stringify({ ...(await exportJWK(privateKey)), kid, alg: ALG }),
    public_jwk: JSON.stringify(publicJwk),
    created_at: new Date().toISOString(),
    retired_at: null,
  });
}

/** createTokenService loads (or, at first start, creates) the signing key and the anon and service keys. */
export async function createTokenService(
  db: Kysely<SystemDatabase>,
  options: { issuer: string },
): Promise<TokenService> {
  // The keys are read again after a restore replaced the database (reload): every node then signs and verifies
  // with the restored instance's keys.
  const load = async () => {
    let keys = await loadKeys(db);
    if (!keys.some((k) => k.privateKey)) {
      await createSigningKey(db);
      keys = await loadKeys(db);
    }
    // Several processes may start at once on PostgreSQL: every one signs with the oldest active key.
    const signer = keys.find((k) => k.privateKey);
    if (!signer?.privateKey) throw new Error('No active signing key');
    const signingKey = signer.privateKey;
    const signKey = (role: 'anon' | 'service_role', ref?: string) => {
      const iat = Math.floor(Date.now() / 1000);
      return new SignJWT(ref === undefined ? { role } : { role, ref })
        .setProtectedHeader({ alg: ALG, kid: signer.kid, typ: 'JWT' })
        .setIssuer(KEY_ISSUER)
        .setIssuedAt(iat)
        .setExpirationTime(iat + KEY_TTL_SECONDS)
        .sign(signingKey);
    };
    const anonKey =
      (await readSetting(db, 'anon_key')) ?? (await writeSettingOnce(db, 'anon_key', await signKey('anon')));
    const serviceKey =
      (await readSetting(db, 'service_key')) ??
      (await writeSettingOnce(db, 'service_key', await signKey('service_role')));
    return { keys, signer, signingKey, signKey, anonKey, serviceKey, byKid: new Map(keys.map((k) => [k.kid, k])) };
  };
  let state = await load();

  // An ES256 check costs about 0.1 ms, more than the rest of a small read; a token that verified once is
  // remembered until its own expiry (access tokens are stateless until exp, so nothing is lost), by its full text.
  const verified = new Map<string, { token: VerifiedToken; expiresAtMs: number }>();

  async function verifySignature(token: string): Promise<VerifiedToken> {
    const parts = token.split('.');
    if (parts.length !== 3) throw new TokenError('invalid', `Expected 3 parts in JWT; got ${parts.length}`);
    try {
      const { payload } = await jwtVerify(
        token,
        async (header) => {
          const key = header.kid ? state.byKid.get(header.kid) : undefined;
          if (!key) throw new TokenError('invalid', 'JWT cryptographic operation failed');
          return key.publicKey;
        },
        { algorithms: [ALG], requiredClaims: ['exp', 'iss'] },
      );
      const role = payload.role;
      if (role !== 'anon' && role !== 'service_role' && role !== 'authenticated') {
        throw new TokenError('invalid', 'JWT has no valid role claim');
      }
      if (payload.iss !== (role === 'authenticated' ? options.issuer : KEY_ISSUER)) {
        throw new TokenError('invalid', 'invalid claim: wrong iss claim');
      }
      if (role === 'authenticated' && (typeof payload.sub !== 'string' || payload.aud !== 'authenticated')) {
        throw new TokenError('invalid', 'invalid claim: missing sub claim');
      }
      return {
        role,
        sub: role === 'authenticated' ? (payload.sub ?? null) : null,
        sessionId: typeof payload.session_id === 'string' ? payload.session_id : null,
        ref: typeof payload.ref === 'string' ? payload.ref : null,
        claims: payload,
      };
    } catch (error) {
      if (error instanceof TokenError) throw error;
      if (error instanceof joseErrors.JWTExpired) throw new TokenError('expired', 'JWT expired');
      if (error instanceof joseErrors.JWTClaimValidationFailed) {
        throw new TokenError(
          'invalid',
          `invalid claim: ${error.reason === 'missing' ? 'missing' : 'wrong'} ${error.claim} claim`,
        );
      }
      throw new TokenError('invalid', 'JWT cryptographic operation failed');
    }
  }

  return {
    issuer: options.issuer,
    get anonKey() {
      return state.anonKey;
    },
    get serviceKey() {
      return state.serviceKey;
    },
    jwks: () => ({ keys: state.keys.map((k) => k.publicJwk) }),
    roleOfKey: (key) => (key === state.anonKey ? 'anon' : key === state.serviceKey ? 'service_role' : null),
    signAppKey: (ref, role) => state.signKey(role, ref),
    async reload() {
      state = await load();
      verified.clear();
    },

    async signAccessToken(input) {
      const iat = Math.floor(Date.now() / 1000);
      const ttl = input.ttlSeconds ?? ACCESS_TOKEN_TTL_SECONDS;
      const exp = iat + ttl;
      const token = await new SignJWT({
        ...(input.ref === undefined ? {} : { ref: input.ref }),
        aud: 'authenticated',
        role: 'authenticated',
        email: input.email,
        phone: '',
        app_metadata: input.appMetadata,
        user_metadata: input.userMetadata,
        aal: input.aal ?? 'aal1',
        amr: input.amr,
        session_id: input.sessionId,
        is_anonymous: input.isAnonymous ?? false,
      })
        .setProtectedHeader({ alg: ALG, kid: state.signer.kid, typ: 'JWT' })
        .setIssuer(options.issuer)
        .setSubject(input.userId)
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(state.signingKey);
      return { token, expiresIn: ttl, expiresAt: exp };
    },

    async verify(token) {
      const cached = verified.get(token);
      if (cached) {
        if (cached.expiresAtMs > Date.now()) return cached.token;
        verified.delete(token);
      }
      const result = await verifySignature(token);
      // Every verified token has an exp (required above).
      const exp = (result.claims.exp ?? 0) * 1000;
      if (verified.size >= VERIFIED_CACHE_SIZE) {
        // Maps iterate in insertion order: drop the oldest entry.
        const oldest = verified.keys().next().value;
        if (oldest !== undefined) verified.delete(oldest);
      }
      verified.set(token, { token: result, expiresAtMs: exp });
      return result;
    },
  };
}

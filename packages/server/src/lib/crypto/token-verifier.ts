import type { JWTPayload } from 'jose';

// What checking a bearer token needs, apart from the service that signs them (features/auth/sessions/tokens.service.ts):
// the request pipeline (http/) verifies tokens without knowing how they are made.

/** TokenRole is the role claim of a verified token. */
export type TokenRole = 'anon' | 'service_role' | 'authenticated';

/** VerifiedToken is a token whose signature, expiry and issuer were checked. */
export interface VerifiedToken {
  role: TokenRole;
  /** The user id (authenticated tokens only). */
  sub: string | null;
  sessionId: string | null;
  /** The app an end user's token belongs to (its `ref` claim); null for console accounts' tokens and keys. */
  ref: string | null;
  claims: JWTPayload;
}

/** TokenError says why a bearer token was refused. */
export class TokenError extends Error {
  constructor(
    readonly reason: 'expired' | 'invalid',
    message: string,
  ) {
    super(message);
  }
}

/** TokenVerifier checks the instance's JWTs and recognises its two keys. */
export interface TokenVerifier {
  /** verify checks a JWT of this instance; throws TokenError. */
  verify(token: string): Promise<VerifiedToken>;
  /** roleOfKey tells whether a string is this instance's anon or service key (no crypto). */
  roleOfKey(key: string): 'anon' | 'service_role' | null;
}

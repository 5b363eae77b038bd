import { createHash } from 'node:crypto';
import { createRemoteJWKSet, type JWTPayload, errors as joseErrors, jwtVerify } from 'jose';
import { compact, fetchJson, isRecord, ProviderError, withQuery } from './oauth-http.js';
import type {
  ExchangeInput,
  IdTokenInput,
  OAuthProvider,
  OAuthProviderConfig,
  ProviderProfile,
} from './oauth-provider.js';

// OpenID Connect sign-in (Google, and any issuer by its discovery URL): the issuer's discovery document names its
// endpoints and keys; the ID token of the code exchange is verified with jose against the issuer's JWKS: its
// signature, issuer, audience (our client id), expiry and the nonce of this very flow. A token that fails any of
// these fails the sign-in. Discovery documents are kept an hour per issuer; jose keeps the keys and refetches
// them when a token names an unknown key id.

const DISCOVERY_TTL_MS = 3600_000;
const DISCOVERY_PATH = '/.well-known/openid-configuration';

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  userinfo_endpoint?: string;
  id_token_signing_alg_values_supported?: string[];
  token_endpoint_auth_methods_supported?: string[];
}

const discoveries = new Map<
  string,
  { doc: Discovery; keys: ReturnType<typeof createRemoteJWKSet>; expiresAt: number }
>();

/** discoveryUrlOf accepts an issuer URL or its discovery URL. */
export function discoveryUrlOf(issuerOrDiscovery: string): string {
  const trimmed = issuerOrDiscovery.replace(/\/+$/, '');
  return trimmed.endsWith(DISCOVERY_PATH) ? trimmed : `${trimmed}${DISCOVERY_PATH}`;
}

async function discover(issuerOrDiscovery: string) {
  const url = discoveryUrlOf(issuerOrDiscovery);
  const known = discoveries.get(url);
  if (known && known.expiresAt > Date.now()) return known;
  const doc = await fetchJson(url, { headers: { accept: 'application/json' } });
  const fields = ['issuer', 'authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const;
  if (!isRecord(doc) || fields.some((field) => typeof doc[field] !== 'string')) {
    throw new ProviderError('The issuer’s discovery document lacks its endpoints');
  }
  const discovery = doc as unknown as Discovery;
  if (!URL.canParse(discovery.jwks_uri))
    throw new ProviderError('The issuer’s discovery document names no valid jwks_uri');
  const entry = {
    doc: discovery,
    keys: createRemoteJWKSet(new URL(discovery.jwks_uri), { timeoutDuration: 10_000 }),
    expiresAt: Date.now() + DISCOVERY_TTL_MS,
  };
  discoveries.set(url, entry);
  return entry;
}

// Google's ID tokens name their issuer with or without the scheme (its documentation says to accept both).
const GOOGLE_ISSUER = 'https://accounts.google.com';
const issuersOf = (doc: Discovery) =>
  doc.issuer === GOOGLE_ISSUER ? [GOOGLE_ISSUER, 'accounts.google.com'] : doc.issuer;

async function verifyIdToken(
  token: string,
  discovered: Awaited<ReturnType<typeof discover>>,
  clientId: string,
  nonce: string,
): Promise<JWTPayload> {
  const algorithms = discovered.doc.id_token_signing_alg_values_supported?.filter((alg) => alg !== 'none') ?? ['RS256'];
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, discovered.keys, {
      issuer: issuersOf(discovered.doc),
      audience: clientId,
      algorithms,
      requiredClaims: ['sub', 'exp', 'iat'],
    }));
  } catch (error) {
    if (error instanceof joseErrors.JWTClaimValidationFailed) {
      throw new ProviderError(`The ID token's ${error.claim} claim does not match`);
    }
    if (error instanceof joseErrors.JWTExpired) throw new ProviderError('The ID token has expired');
    throw new ProviderError('The ID token’s signature does not verify');
  }
  if (payload.nonce !== nonce) throw new ProviderError('The ID token’s nonce does not match this sign-in');
  return payload;
}

// No real ID token comes near this; a larger one is refused before any key is looked up.
const MAX_ID_TOKEN_LENGTH = 16 * 1024;

// OIDC Core 3.1.3.6: at_hash is the left half of the access token's hash under the ID token's algorithm's hash.
function accessTokenHash(accessToken: string, alg: string): string | null {
  const bits = alg.match(/^(?:RS|PS|ES)(256|384|512)$/)?.[1];
  if (!bits) return null;
  const digest = createHash(`sha${bits}`).update(accessToken).digest();
  return digest.subarray(0, digest.length / 2).toString('base64url');
}

/**
 * verifyClientIdToken checks an ID token a client obtained itself, with GoTrue's rules and messages: signature,
 * issuer and expiry ("Bad ID token"), audience, the nonce (the token's claim is the SHA-256 hex of the request's;
 * both or neither), and at_hash when the access token is given too.
 */
async function verifyClientIdToken(
  input: IdTokenInput,
  discovered: Awaited<ReturnType<typeof discover>>,
  clientId: string,
): Promise<JWTPayload> {
  const bad = () => new ProviderError('Bad ID token');
  if (input.idToken.length > MAX_ID_TOKEN_LENGTH) throw bad();
  const algorithms = discovered.doc.id_token_signing_alg_values_supported?.filter((alg) => alg !== 'none') ?? ['RS256'];
  let verified: Awaited<ReturnType<typeof jwtVerify>>;
  try {
    verified = await jwtVerify(input.idToken, discovered.keys, {
      issuer: issuersOf(discovered.doc),
      algorithms,
      requiredClaims: ['exp'],
    });
  } catch {
    throw bad();
  }
  const { payload, protectedHeader } = verified;
  if (input.accessToken && typeof payload.at_hash === 'string') {
    if (accessTokenHash(input.accessToken, protectedHeader.alg) !== payload.at_hash) throw bad();
  }
  if (typeof payload.sub !== 'string' || !payload.sub) throw new ProviderError('Missing sub claim in id_token');
  const audience = typeof payload.aud === 'string' ? [payload.aud] : (payload.aud ?? []);
  if (!audience.includes(clientId)) {
    throw new ProviderError(`Unacceptable audience in id_token: [${audience.join(' ')}]`);
  }
  const tokenNonce = typeof payload.nonce === 'string' ? payload.nonce : '';
  if (Boolean(tokenNonce) !== Boolean(input.nonce)) {
    throw new ProviderError('Passed nonce and nonce in id_token should either both exist or not.');
  }
  if (input.nonce && createHash('sha256').update(input.nonce).digest('hex') !== tokenNonce) {
    throw new ProviderError('Nonces mismatch');
  }
  return payload;
}

// GoTrue's identity data from an issuer's claims: the same keys whichever way the claims arrived.
function profileOf(claims: Record<string, unknown>): ProviderProfile {
  const subject = String(claims.sub);
  const email = typeof claims.email === 'string' && claims.email ? claims.email : null;
  const verified = claims.email_verified === true || claims.email_verified === 'true';
  return {
    subject,
    email,
    emailVerified: verified,
    claims: compact({
      iss: claims.iss,
      sub: subject,
      provider_id: subject,
      name: claims.name,
      full_name: claims.name,
      preferred_username: claims.preferred_username,
      user_name: claims.preferred_username,
      picture: claims.picture,
      avatar_url: claims.picture,
      email: email ?? undefined,
      email_verified: verified,
      phone_verified: false,
    }),
  };
}

// The client authentication the issuer supports: HTTP Basic (the default of the specification) or the form.
async function tokenRequest(
  config: OAuthProviderConfig,
  doc: Discovery,
  input: ExchangeInput,
): Promise<Record<string, unknown>> {
  const secret = await config.clientSecret();
  const params = new URLSearchParams({
    grant_type: 'authorization_code',
    code: input.code,
    redirect_uri: input.redirectUri,
    code_verifier: input.codeVerifier,
  });
  const headers: Record<string, string> = {
    accept: 'application/json',
    'content-type': 'application/x-www-form-urlencoded',
  };
  const methods = doc.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  if (methods.includes('client_secret_basic')) {
    const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
    headers.authorization = `Basic ${Buffer.from(`${encode(config.clientId)}:${encode(secret)}`).toString('base64')}`;
  } else {
    params.set('client_id', config.clientId);
    params.set('client_secret', secret);
  }
  const answer = await fetchJson(doc.token_endpoint, { method: 'POST', headers, body: params });
  if (!isRecord(answer)) throw new ProviderError('The issuer answered the code exchange with no object');
  return answer;
}

/** oidcProvider signs in with an OpenID Connect issuer (its URL or discovery URL). */
export function oidcProvider(config: OAuthProviderConfig, issuer: string): OAuthProvider {
  return {
    async authorizationUrl(input) {
      const { doc } = await discover(issuer);
      const scopes = new Set(['openid', 'email', 'profile', ...(input.scopes ?? '').split(/[\s,]+/).filter(Boolean)]);
      return withQuery(doc.authorization_endpoint, {
        ...input.extra,
        client_id: config.clientId,
        redirect_uri: input.redirectUri,
        response_type: 'code',
        scope: [...scopes].join(' '),
        state: input.state,
        nonce: input.nonce,
        code_challenge: input.codeChallenge,
        code_challenge_method: 'S256',
      });
    },
    async exchange(input) {
      const discovered = await discover(issuer);
      const answer = await tokenRequest(config, discovered.doc, input);
      if (typeof answer.id_token !== 'string') throw new ProviderError('The issuer issued no ID token');
      if (typeof answer.access_token !== 'string') throw new ProviderError('The issuer issued no access token');
      const claims: Record<string, unknown> = {
        ...(await verifyIdToken(answer.id_token, discovered, config.clientId, input.nonce)),
      };
      // The ID token may leave the address out; the userinfo endpoint then has it (for the same subject only).
      if (typeof claims.email !== 'string' && discovered.doc.userinfo_endpoint) {
        const info = await fetchJson(discovered.doc.userinfo_endpoint, {
          headers: { authorization: `Bearer ${answer.access_token}`, accept: 'application/json' },
        });
        if (isRecord(info) && info.sub === claims.sub) Object.assign(claims, info, { sub: claims.sub });
      }
      return {
        accessToken: answer.access_token,
        refreshToken: typeof answer.refresh_token === 'string' ? answer.refresh_token : null,
        profile: profileOf(claims),
      };
    },
    async verifyIdToken(input) {
      const discovered = await discover(issuer);
      return profileOf({ ...(await verifyClientIdToken(input, discovered, config.clientId)) });
    },
  };
}

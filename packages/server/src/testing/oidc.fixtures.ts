import { createHash } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import Provider from 'oidc-provider';

// OpenID Connect issuers on 127.0.0.1 for the OAuth suites, never an outside service.
// - startOidcIssuer runs the maintained `oidc-provider` (discovery, JWKS, signed ID tokens, PKCE). Its login and
//   consent screens are replaced by one step that signs in whoever the test names (`signInAs`).
// - startFakeIssuer answers with an ID token that is wrong on purpose (a foreign key, another audience), which no
//   real issuer would send, to show that Basalt refuses it; it also signs ID tokens for a client to hand in
//   itself (signInWithIdToken), right or wrong as the test asks.

/** OidcAccount is a person the local issuer can sign in. */
export interface OidcAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
}

/** OidcIssuer is a running local OpenID Connect provider. */
export interface OidcIssuer {
  issuer: string;
  /** register sets the clients (their redirect URI is Basalt's callback, known once Basalt runs). */
  register(clients: Array<{ clientId: string; clientSecret: string; redirectUri: string }>): void;
  /** signInAs names who the next sign-in is. */
  signInAs(account: OidcAccount): void;
  close(): Promise<void>;
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<http.Server> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const close = (server: http.Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/** startOidcIssuer starts oidc-provider on a free port; call register before the first sign-in. */
export async function startOidcIssuer(): Promise<OidcIssuer> {
  let provider: Provider | null = null;
  let account: OidcAccount = { sub: 'nobody', email: 'nobody@example.com', email_verified: true, name: 'Nobody' };
  const accounts = new Map<string, OidcAccount>();

  // Signs in the named account at once: the grant covers the scopes asked, so no consent screen comes.
  async function interaction(req: IncomingMessage, res: ServerResponse, current: Provider) {
    const details = await current.interactionDetails(req, res);
    accounts.set(account.sub, account);
    const grant = new current.Grant({ accountId: account.sub, clientId: String(details.params.client_id) });
    grant.addOIDCScope(String(details.params.scope));
    const grantId = await grant.save();
    await current.interactionFinished(
      req,
      res,
      { login: { accountId: account.sub }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }

  const server = await listen((req, res) => {
    const current = provider;
    if (!current) {
      res.writeHead(503).end();
      return;
    }
    if (req.url?.startsWith('/interaction/')) {
      interaction(req, res, current).catch((error: unknown) => {
        res.writeHead(500).end(String(error));
      });
      return;
    }
    current.callback()(req, res);
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    register(clients) {
      provider = new Provider(issuer, {
        clients: clients.map(({ clientId, clientSecret, redirectUri }) => ({
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: [redirectUri],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        })),
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
        findAccount: async (_ctx, id) => {
          const found = accounts.get(id);
          if (!found) return undefined;
          return { accountId: id, claims: async () => ({ ...found }) };
        },
        interactions: { url: (_ctx, details) => `/interaction/${details.uid}` },
        features: { devInteractions: { enabled: false } },
        cookies: { keys: ['basalt-test-cookie-key'] },
        // The ID token carries the email claims too (not only the userinfo endpoint).
        conformIdTokenClaims: false,
      });
    },
    signInAs(next) {
      account = next;
    },
    close: () => close(server),
  };
}

/** FakeIssuerMode is what is wrong with the fake issuer's ID token. */
export type FakeIssuerMode = 'good' | 'foreign-key' | 'other-audience' | 'other-nonce';

/**
 * IdTokenClaims shape an ID token the fake issuer hands a client directly (signInWithIdToken): whom it names and
 * what is wrong with it, if anything. Unset fields take the issuer's right values.
 */
export interface IdTokenClaims {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  /** The nonce claim as it stands in the token (a client puts the SHA-256 hex of its raw nonce there). */
  nonce?: string;
  aud?: string | string[];
  iss?: string;
  /** Seconds from now until `exp`; negative for an expired token. */
  expiresIn?: number;
  /** Sign with a key the issuer does not publish. */
  foreignKey?: boolean;
  /** The access token the at_hash claim is computed for. */
  accessToken?: string;
}

/** FakeIssuer is a minimal OpenID Connect issuer whose ID tokens can be made wrong. */
export interface FakeIssuer {
  issuer: string;
  mode: FakeIssuerMode;
  /** idToken signs an RS256 ID token with the issuer's published key (or a foreign one). */
  idToken(claims: IdTokenClaims): Promise<string>;
  close(): Promise<void>;
}

/** startFakeIssuer starts the fake issuer for a client id. */
export async function startFakeIssuer(clientId: string): Promise<FakeIssuer> {
  const good = await generateKeyPair('RS256');
  const foreign = await generateKeyPair('RS256');
  const publicJwk: JWK = { ...(await exportJWK(good.publicKey)), kid: 'good', alg: 'RS256', use: 'sig' };
  const nonces = new Map<string, string>();
  const state = { mode: 'good' as FakeIssuerMode };
  let issuer = '';

  const json = (res: ServerResponse, body: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const server = await listen((req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(res, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        id_token_signing_alg_values_supported: ['RS256'],
        token_endpoint_auth_methods_supported: ['client_secret_post'],
      });
    }
    if (url.pathname === '/jwks') return json(res, { keys: [publicJwk] });
    if (url.pathname === '/authorize') {
      const code = `code-${nonces.size}`;
      nonces.set(code, url.searchParams.get('nonce') ?? '');
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.toString() }).end();
      return;
    }
    if (url.pathname === '/token') {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', async () => {
        const code = new URLSearchParams(body).get('code') ?? '';
        const now = Math.floor(Date.now() / 1000);
        const idToken = await new SignJWT({
          email: 'fake@example.com',
          email_verified: true,
          nonce: state.mode === 'other-nonce' ? 'not-this-one' : nonces.get(code),
        })
          .setProtectedHeader({ alg: 'RS256', kid: 'good' })
          .setIssuer(issuer)
          .setSubject('fake-user')
          .setAudience(state.mode === 'other-audience' ? 'someone-else' : clientId)
          .setIssuedAt(now)
          .setExpirationTime(now + 300)
          .sign(state.mode === 'foreign-key' ? foreign.privateKey : good.privateKey);
        json(res, { access_token: 'fake-access', token_type: 'Bearer', id_token: idToken, expires_in: 300 });
      });
      return;
    }
    res.writeHead(404).end();
  });
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const sha256Half = (value: string) =>
    createHash('sha256').update(value).digest().subarray(0, 16).toString('base64url');
  return {
    issuer,
    async idToken({ sub, aud, iss, expiresIn = 300, foreignKey, accessToken, ...claims }) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ ...claims, ...(accessToken ? { at_hash: sha256Half(accessToken) } : {}) })
        .setProtectedHeader({ alg: 'RS256', kid: 'good' })
        .setIssuer(iss ?? issuer)
        .setSubject(sub)
        .setAudience(aud ?? clientId)
        .setIssuedAt(now)
        .setExpirationTime(now + expiresIn)
        .sign(foreignKey ? foreign.privateKey : good.privateKey);
    },
    get mode() {
      return state.mode;
    },
    set mode(mode: FakeIssuerMode) {
      state.mode = mode;
    },
    close: () => close(server),
  };
}

/** FakeOAuthProvider is a GitHub (Enterprise) or GitLab (self-hosted) stand-in at a base URL. */
export interface FakeOAuthProvider {
  url: string;
  /** The client secrets the token endpoint was sent, in order. */
  secretsSeen: string[];
  close(): Promise<void>;
}

/**
 * startFakeOAuthProvider answers GitHub's or GitLab's OAuth and user endpoints as their documentation describes
 * them, for a client id and secret; a wrong secret gets their 401.
 */
export async function startFakeOAuthProvider(
  kind: 'github' | 'gitlab',
  client: { id: string; secret: string },
): Promise<FakeOAuthProvider> {
  const secretsSeen: string[] = [];
  let base = '';
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const authorize = kind === 'github' ? '/login/oauth/authorize' : '/oauth/authorize';
  const token = kind === 'github' ? '/login/oauth/access_token' : '/oauth/token';
  const server = await listen((req, res) => {
    const url = new URL(req.url ?? '/', base);
    if (url.pathname === authorize) {
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', `${kind}-code`);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.toString() }).end();
      return;
    }
    if (url.pathname === token) {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        const form = new URLSearchParams(body);
        secretsSeen.push(form.get('client_secret') ?? '');
        if (form.get('client_id') !== client.id || form.get('client_secret') !== client.secret) {
          return json(res, 401, { error: 'invalid_client', error_description: 'Client authentication failed' });
        }
        json(res, 200, { access_token: `${kind}-access`, token_type: 'bearer', scope: 'user' });
      });
      return;
    }
    if (req.headers.authorization !== `Bearer ${kind}-access`) return json(res, 401, { message: 'Bad credentials' });
    if (kind === 'github' && url.pathname === '/api/v3/user') {
      return json(res, 200, { id: 583231, login: 'octocat', name: 'The Octocat', avatar_url: `${base}/octocat.png` });
    }
    if (kind === 'github' && url.pathname === '/api/v3/user/emails') {
      return json(res, 200, [
        { email: 'octo.old@github.test', primary: false, verified: true },
        { email: 'octocat@github.test', primary: true, verified: true },
      ]);
    }
    if (kind === 'gitlab' && url.pathname === '/api/v4/user') {
      return json(res, 200, {
        id: 1234,
        username: 'tanuki',
        name: 'Tanuki',
        email: 'tanuki@gitlab.test',
        confirmed_at: '2024-01-01T00:00:00Z',
        avatar_url: `${base}/tanuki.png`,
      });
    }
    json(res, 404, { message: 'Not Found' });
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: base, secretsSeen, close: () => close(server) };
}

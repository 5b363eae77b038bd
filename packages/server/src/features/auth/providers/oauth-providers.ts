import { compact, fetchJson, isRecord, ProviderError, withQuery } from './oauth-http.js';
import { oidcProvider } from './oauth-oidc.js';
import type { ExchangeInput, OAuthProvider, OAuthProviderConfig } from './oauth-provider.js';

// The "Sign in with …" providers: GitHub and GitLab (OAuth 2 with their user APIs), Google and any OpenID Connect
// issuer (discovery, signed ID tokens checked with jose: oauth-oidc.ts). Each turns a flow into the provider's
// authorization URL and, on the callback, its code into the user's profile. The identity data kept for a user is
// GoTrue's claims (iss, sub, name, email, email_verified, avatar_url, …), so apps read the same keys as on Supabase.

const scopeList = (defaults: string[], extra: string | null) => [
  ...new Set([...defaults, ...(extra ?? '').split(/[\s,]+/).filter(Boolean)]),
];

// The code exchange of plain OAuth 2 providers (client_secret_post, as GitHub and GitLab accept it).
async function exchangeCode(
  config: OAuthProviderConfig,
  tokenUrl: string,
  input: ExchangeInput,
): Promise<{ accessToken: string; refreshToken: string | null }> {
  const body = new URLSearchParams({
    grant_type: 'authorization_code',
    code: input.code,
    redirect_uri: input.redirectUri,
    client_id: config.clientId,
    client_secret: await config.clientSecret(),
    code_verifier: input.codeVerifier,
  });
  const answer = await fetchJson(tokenUrl, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  if (!isRecord(answer) || typeof answer.access_token !== 'string') {
    const reason = isRecord(answer) ? (answer.error_description ?? answer.error) : undefined;
    throw new ProviderError(`The provider did not issue a token${reason ? `: ${String(reason)}` : ''}`);
  }
  return {
    accessToken: answer.access_token,
    refreshToken: typeof answer.refresh_token === 'string' ? answer.refresh_token : null,
  };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}`, accept: 'application/json' });
const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

function githubProvider(config: OAuthProviderConfig): OAuthProvider {
  const base = (config.url ?? 'https://github.com').replace(/\/+$/, '');
  const api = config.url ? `${base}/api/v3` : 'https://api.github.com';
  return {
    async authorizationUrl(input) {
      return withQuery(`${base}/login/oauth/authorize`, {
        ...input.extra,
        client_id: config.clientId,
        redirect_uri: input.redirectUri,
        response_type: 'code',
        scope: scopeList(['user:email'], input.scopes).join(' '),
        state: input.state,
      });
    },
    async exchange(input) {
      const tokens = await exchangeCode(config, `${base}/login/oauth/access_token`, input);
      const user = await fetchJson(`${api}/user`, { headers: bearer(tokens.accessToken) });
      const emails = await fetchJson(`${api}/user/emails`, { headers: bearer(tokens.accessToken) });
      if (!isRecord(user) || (typeof user.id !== 'number' && typeof user.id !== 'string')) {
        throw new ProviderError('GitHub did not name the user');
      }
      const list = Array.isArray(emails) ? emails.filter(isRecord) : [];
      const chosen = list.find((e) => e.primary === true) ?? list[0];
      const id = String(user.id);
      const email = text(chosen?.email) ?? null;
      const verified = chosen?.verified === true;
      return {
        ...tokens,
        profile: {
          subject: id,
          email,
          emailVerified: verified,
          claims: compact({
            iss: api,
            sub: id,
            provider_id: id,
            name: text(user.name),
            full_name: text(user.name),
            user_name: text(user.login),
            preferred_username: text(user.login),
            avatar_url: text(user.avatar_url),
            email: email ?? undefined,
            email_verified: verified,
            phone_verified: false,
          }),
        },
      };
    },
  };
}

function gitlabProvider(config: OAuthProviderConfig): OAuthProvider {
  const base = (config.url ?? 'https://gitlab.com').replace(/\/+$/, '');
  return {
    async authorizationUrl(input) {
      return withQuery(`${base}/oauth/authorize`, {
        ...input.extra,
        client_id: config.clientId,
        redirect_uri: input.redirectUri,
        response_type: 'code',
        scope: scopeList(['read_user'], input.scopes).join(' '),
        state: input.state,
        code_challenge: input.codeChallenge,
        code_challenge_method: 'S256',
      });
    },
    async exchange(input) {
      const tokens = await exchangeCode(config, `${base}/oauth/token`, input);
      const user = await fetchJson(`${base}/api/v4/user`, { headers: bearer(tokens.accessToken) });
      if (!isRecord(user) || (typeof user.id !== 'number' && typeof user.id !== 'string')) {
        throw new ProviderError('GitLab did not name the user');
      }
      const id = String(user.id);
      const email = text(user.email) ?? null;
      const verified = typeof user.confirmed_at === 'string' && user.confirmed_at !== '';
      return {
        ...tokens,
        profile: {
          subject: id,
          email,
          emailVerified: verified,
          claims: compact({
            iss: base,
            sub: id,
            provider_id: id,
            name: text(user.name),
            full_name: text(user.name),
            user_name: text(user.username),
            preferred_username: text(user.username),
            avatar_url: text(user.avatar_url),
            email: email ?? undefined,
            email_verified: verified,
            phone_verified: false,
          }),
        },
      };
    },
  };
}

/** oauthProvider returns the implementation of a configured provider. */
export function oauthProvider(config: OAuthProviderConfig): OAuthProvider {
  switch (config.kind) {
    case 'github':
      return githubProvider(config);
    case 'gitlab':
      return gitlabProvider(config);
    case 'google':
      return oidcProvider(config, config.url ?? 'https://accounts.google.com');
    case 'oidc':
      return oidcProvider(config, config.url ?? '');
  }
}

import type { OAuthProviderKind } from '@basalt/shared';

// What every "Sign in with …" provider is given and answers: the contract that the OAuth 2 providers
// (oauth-providers.ts) and the OpenID Connect ones (oauth-oidc.ts) both fulfil.

/** OAuthProviderConfig is one provider configured by the operator (console) or an app's developer. */
export interface OAuthProviderConfig {
  /** What signInWithOAuth names: github, google, gitlab, or custom:<slug> for an OpenID Connect issuer. */
  id: string;
  kind: OAuthProviderKind;
  /** The button's label. */
  name: string;
  clientId: string;
  /** clientSecret opens the stored secret when a sign-in needs it. */
  clientSecret(): Promise<string>;
  /** GitHub Enterprise / self-hosted GitLab base URL; an OpenID Connect issuer (or its discovery URL). */
  url: string | null;
}

/** ProviderProfile is who the provider says signed in. */
export interface ProviderProfile {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  /** GoTrue's identity data. */
  claims: Record<string, unknown>;
}

/** ProviderSignIn is the outcome of a callback: the profile and the provider's own tokens. */
export interface ProviderSignIn {
  profile: ProviderProfile;
  accessToken: string;
  refreshToken: string | null;
}

/** AuthorizationInput is what a provider's authorization URL carries. */
export interface AuthorizationInput {
  state: string;
  redirectUri: string;
  /** Extra scopes asked by the app (space- or comma-separated), added to the provider's defaults. */
  scopes: string | null;
  /** OpenID Connect's nonce, checked in the ID token. */
  nonce: string;
  /** The S256 challenge of Basalt's own PKCE towards the provider. */
  codeChallenge: string;
  /** Other query parameters the app passed (e.g. prompt, login_hint). */
  extra: Record<string, string>;
}

/** ExchangeInput is what a callback trades for the profile. */
export interface ExchangeInput {
  code: string;
  redirectUri: string;
  nonce: string;
  codeVerifier: string;
}

/** IdTokenInput is an ID token a client obtained from the provider itself (signInWithIdToken). */
export interface IdTokenInput {
  idToken: string;
  /** The raw nonce the client generated; the token carries its SHA-256 in hex. */
  nonce: string | null;
  /** The provider's access token issued with the ID token, checked against its at_hash. */
  accessToken: string | null;
}

/** OAuthProvider runs one provider's side of a sign-in. */
export interface OAuthProvider {
  authorizationUrl(input: AuthorizationInput): Promise<string>;
  exchange(input: ExchangeInput): Promise<ProviderSignIn>;
  /** verifyIdToken checks an ID token handed in by a client; only OpenID Connect providers issue them. */
  verifyIdToken?(input: IdTokenInput): Promise<ProviderProfile>;
}

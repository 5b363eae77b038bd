// The console accounts' sign-in providers, from AUTH_<KIND>_* variables (config.ts reads them with the rest).

/** ConsoleOAuthProvider is a provider the operator configured for the console accounts. */
export interface ConsoleOAuthProvider {
  kind: 'github' | 'google' | 'gitlab' | 'oidc';
  /** github, google, gitlab, or custom:<slug of AUTH_OIDC_NAME>. */
  id: string;
  name: string;
  clientId: string;
  clientSecret: string;
  url: string | null;
}

// AUTH_<KIND>_CLIENT_ID and AUTH_<KIND>_SECRET configure one provider (both or neither); AUTH_GITHUB_URL and
// AUTH_GITLAB_URL name a GitHub Enterprise or self-hosted GitLab; AUTH_OIDC_ISSUER (an issuer or its discovery URL)
// and AUTH_OIDC_NAME an OpenID Connect provider.
export function oauthProvidersOf(env: NodeJS.ProcessEnv): ConsoleOAuthProvider[] {
  const kinds = [
    { kind: 'github', name: 'GitHub' },
    { kind: 'google', name: 'Google' },
    { kind: 'gitlab', name: 'GitLab' },
    { kind: 'oidc', name: 'OpenID Connect' },
  ] as const;
  const providers: ConsoleOAuthProvider[] = [];
  for (const { kind, name } of kinds) {
    const prefix = `AUTH_${kind.toUpperCase()}`;
    const clientId = env[`${prefix}_CLIENT_ID`]?.trim();
    const clientSecret = env[`${prefix}_SECRET`]?.trim();
    if (!clientId && !clientSecret) continue;
    if (!clientId || !clientSecret) {
      throw new Error(`Invalid configuration: ${prefix}_CLIENT_ID and ${prefix}_SECRET go together`);
    }
    const url = (kind === 'oidc' ? env.AUTH_OIDC_ISSUER : env[`${prefix}_URL`])?.trim() || null;
    if (kind === 'oidc' && !url) throw new Error('Invalid configuration: AUTH_OIDC_ISSUER names the issuer');
    if (url && !/^https?:\/\//.test(url)) throw new Error(`Invalid configuration: ${prefix} URL must be http(s)`);
    const label = kind === 'oidc' ? env.AUTH_OIDC_NAME?.trim() || name : name;
    const slug =
      label
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '') || 'oidc';
    providers.push({ kind, id: kind === 'oidc' ? `custom:${slug}` : kind, name: label, clientId, clientSecret, url });
  }
  return providers;
}

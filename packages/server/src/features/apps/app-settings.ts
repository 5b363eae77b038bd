import {
  type AppSettings,
  DEFAULT_APP_PASSWORD_POLICY,
  OAUTH_PROVIDER_KINDS,
  type OAuthProviderInfo,
  type OAuthProviderKind,
  PASSWORD_CHARACTER_RULE_IDS,
  PASSWORD_POLICY_LIMITS,
  type PasswordPolicy,
} from '@basalt/shared';

// An app's auth settings as stored (only what was set) and as used (every setting, defaults filled in).

/** SettingsDefaults are what the instance decides: confirmation mails only make sense when mail is delivered. */
export interface SettingsDefaults {
  mailDelivers: boolean;
}

/** defaultAppSettings are a new app's settings. */
export function defaultAppSettings({ mailDelivers }: SettingsDefaults): AppSettings {
  return {
    signupsAllowed: true,
    emailConfirmation: mailDelivers,
    siteUrl: null,
    redirectUrls: [],
    accessTokenLifetime: 3600,
    anonymousSignIns: false,
    mfaEnabled: true,
    passwordReauthentication: false,
    passwordMinLength: DEFAULT_APP_PASSWORD_POLICY.minLength,
    passwordRequiredCharacters: DEFAULT_APP_PASSWORD_POLICY.requiredCharacters,
    providers: [],
  };
}

/** appPasswordPolicy is the password rule an app's settings give its end users. */
export function appPasswordPolicy(settings: AppSettings): PasswordPolicy {
  return { minLength: settings.passwordMinLength, requiredCharacters: settings.passwordRequiredCharacters };
}

/** StoredProvider is a provider as an app's settings keep it: its client secret sealed (features/secrets). */
export interface StoredProvider {
  id: string;
  kind: OAuthProviderKind;
  name: string;
  clientId: string;
  url: string | null;
  clientSecretSealed: string | null;
}

/** readStoredProviders reads the providers of stored settings; malformed entries are left out. */
export function readStoredProviders(text: string): StoredProvider[] {
  let stored: unknown;
  try {
    stored = JSON.parse(text);
  } catch {
    return [];
  }
  if (!isObject(stored) || !Array.isArray(stored.providers)) return [];
  return stored.providers.flatMap((p: unknown): StoredProvider[] => {
    if (!isObject(p) || typeof p.id !== 'string' || typeof p.clientId !== 'string') return [];
    if (!OAUTH_PROVIDER_KINDS.includes(p.kind as OAuthProviderKind)) return [];
    return [
      {
        id: p.id,
        kind: p.kind as OAuthProviderKind,
        name: typeof p.name === 'string' ? p.name : p.id,
        clientId: p.clientId,
        url: typeof p.url === 'string' ? p.url : null,
        clientSecretSealed: typeof p.clientSecretSealed === 'string' ? p.clientSecretSealed : null,
      },
    ];
  });
}

/** providerInfo is what GET /api/app shows of a stored provider. */
export function providerInfo(provider: StoredProvider): OAuthProviderInfo {
  const { clientSecretSealed, ...info } = provider;
  return { ...info, hasClientSecret: clientSecretSealed !== null };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** readAppSettings reads stored settings over the defaults; a stored value of the wrong type is ignored. */
export function readAppSettings(text: string, defaults: SettingsDefaults): AppSettings {
  const settings = defaultAppSettings(defaults);
  let stored: unknown;
  try {
    stored = JSON.parse(text);
  } catch {
    return settings;
  }
  if (!isObject(stored)) return settings;
  if (typeof stored.signupsAllowed === 'boolean') settings.signupsAllowed = stored.signupsAllowed;
  if (typeof stored.emailConfirmation === 'boolean') settings.emailConfirmation = stored.emailConfirmation;
  if (typeof stored.siteUrl === 'string' || stored.siteUrl === null) settings.siteUrl = stored.siteUrl;
  if (Array.isArray(stored.redirectUrls)) {
    settings.redirectUrls = stored.redirectUrls.filter((url): url is string => typeof url === 'string');
  }
  if (typeof stored.accessTokenLifetime === 'number') settings.accessTokenLifetime = stored.accessTokenLifetime;
  for (const flag of ['anonymousSignIns', 'mfaEnabled', 'passwordReauthentication'] as const) {
    if (typeof stored[flag] === 'boolean') settings[flag] = stored[flag];
  }
  const { minLengthFloor, minLengthCeiling } = PASSWORD_POLICY_LIMITS;
  const minLength = stored.passwordMinLength;
  if (typeof minLength === 'number' && Number.isInteger(minLength) && minLength >= minLengthFloor) {
    settings.passwordMinLength = Math.min(minLength, minLengthCeiling);
  }
  const characters = PASSWORD_CHARACTER_RULE_IDS.find((id) => id === stored.passwordRequiredCharacters);
  if (characters) settings.passwordRequiredCharacters = characters;
  settings.providers = readStoredProviders(text).map(providerInfo);
  return settings;
}

/** mergeStoredSettings adds a validated patch to what is stored, as JSON. */
export function mergeStoredSettings(
  text: string,
  patch: Partial<Omit<AppSettings, 'providers'>> & { providers?: StoredProvider[] },
): string {
  let stored: unknown;
  try {
    stored = JSON.parse(text);
  } catch {
    stored = {};
  }
  return JSON.stringify({ ...(isObject(stored) ? stored : {}), ...patch });
}

/**
 * allowedRedirect tells whether a redirect_to may be used by an app's mail links: on the origin of its site URL,
 * or starting with one of its redirect URLs (same origin, path prefix).
 */
export function allowedRedirect(target: URL, siteUrl: string, redirectUrls: readonly string[]): boolean {
  const site = new URL(siteUrl);
  if (target.origin === site.origin) return true;
  return redirectUrls.some((allowed) => {
    try {
      const url = new URL(allowed);
      return url.origin === target.origin && target.pathname.startsWith(url.pathname);
    } catch {
      return false;
    }
  });
}

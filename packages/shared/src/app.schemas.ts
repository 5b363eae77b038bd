import { z } from 'zod';
import { passwordCharactersSchema, passwordMinLengthSchema } from './password-policy.js';

// The app of an account (issue "Apps with their own users"): its keys, its auth settings and its end users.
// Every account owns one app; its end users sign in through /auth/v1 with the app's keys and are not console
// accounts.

/** APP_LIMITS bound the app settings. */
export const APP_LIMITS = {
  /** Access-token lifetime in seconds: at least 5 minutes (supabase-js refreshes 90 s before expiry), at most a week. */
  accessTokenMinSeconds: 300,
  accessTokenMaxSeconds: 604_800,
  redirectUrlsMax: 20,
  urlMax: 500,
  providersMax: 10,
} as const;

const urlSchema = z
  .string({ error: 'Enter a URL such as https://myapp.example' })
  .trim()
  .max(APP_LIMITS.urlMax, `A URL can have at most ${APP_LIMITS.urlMax} characters`)
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return url.protocol === 'http:' || url.protocol === 'https:';
      } catch {
        return false;
      }
    },
    { error: 'Enter a URL such as https://myapp.example' },
  );

/** OAUTH_PROVIDER_KINDS are the sign-in providers an app or the instance can configure ("oidc": any OpenID Connect
 * issuer, found by its discovery URL, signed in with as `custom:<slug>`). */
export const OAUTH_PROVIDER_KINDS = ['github', 'google', 'gitlab', 'oidc'] as const;
export type OAuthProviderKind = (typeof OAUTH_PROVIDER_KINDS)[number];

/** oauthProviderInfoSchema is a configured provider as GET /api/app shows it: never its client secret. */
export const oauthProviderInfoSchema = z.object({
  /** What apps pass to signInWithOAuth: github, google, gitlab, or custom:<slug> for an OIDC issuer. */
  id: z.string(),
  kind: z.enum(OAUTH_PROVIDER_KINDS),
  /** The button's label. */
  name: z.string(),
  clientId: z.string(),
  /** GitHub Enterprise or self-hosted GitLab base URL; the issuer (discovery URL) of an OIDC provider. */
  url: z.string().nullable(),
  /** Whether a client secret is stored (it is never shown again). */
  hasClientSecret: z.boolean(),
});
export type OAuthProviderInfo = z.infer<typeof oauthProviderInfoSchema>;

/** oauthProviderInputSchema is one provider of PATCH /api/app {settings: {providers}} (the whole list is sent);
 * a provider sent without clientSecret keeps the one stored for it. */
export const oauthProviderInputSchema = z
  .object({
    kind: z.enum(OAUTH_PROVIDER_KINDS, { error: 'A provider kind is one of github, google, gitlab, oidc' }),
    name: z
      .string({ error: 'A provider name must be text' })
      .trim()
      .min(1, 'Give the provider a name')
      .max(40, 'A provider name can have at most 40 characters')
      .optional(),
    clientId: z
      .string({ error: 'Enter the client ID' })
      .trim()
      .min(1, 'Enter the client ID')
      .max(APP_LIMITS.urlMax, 'The client ID is too long'),
    clientSecret: z
      .string({ error: 'The client secret must be text' })
      .min(1, 'Enter the client secret')
      .max(APP_LIMITS.urlMax, 'The client secret is too long')
      .optional(),
    url: urlSchema.nullable().optional(),
  })
  .strict()
  .refine((p) => p.kind !== 'oidc' || (p.url && p.name), {
    error: 'An OpenID Connect provider needs a name and its issuer URL',
    path: ['url'],
  });
export type OAuthProviderInput = z.infer<typeof oauthProviderInputSchema>;

/** appSettingsSchema is an app's auth settings (the API page's "App auth settings"), every one filled in. */
export const appSettingsSchema = z.object({
  /** New end users may sign up (GoTrue's disable_signup, inverted). */
  signupsAllowed: z.boolean(),
  /** New end users confirm their email before signing in (GoTrue's mailer_autoconfirm, inverted). */
  emailConfirmation: z.boolean(),
  /** Where mail links lead by default; null: the instance's SITE_URL. */
  siteUrl: z.string().nullable(),
  /** Other addresses mail links may lead to (redirect_to), matched by origin and path prefix. */
  redirectUrls: z.array(z.string()),
  /** Lifetime of the end users' access tokens, in seconds. */
  accessTokenLifetime: z.number(),
  /** signInAnonymously() creates anonymous users (off by default). */
  anonymousSignIns: z.boolean(),
  /** Users may enroll TOTP factors and raise their sessions to aal2. */
  mfaEnabled: z.boolean(),
  /** A password change needs the code of GET /auth/v1/reauthenticate once a session is a day old. */
  passwordReauthentication: z.boolean(),
  /** End users' passwords have at least this many characters (Supabase's password_min_length). */
  passwordMinLength: z.number(),
  /** The kinds of characters end users' passwords must contain (Supabase's password_required_characters). */
  passwordRequiredCharacters: passwordCharactersSchema,
  /** "Sign in with …" providers. */
  providers: z.array(oauthProviderInfoSchema),
});
export type AppSettings = z.infer<typeof appSettingsSchema>;

/** appSettingsPatchSchema is the `settings` of PATCH /api/app: any of the settings; the others stay. */
export const appSettingsPatchSchema = z
  .object(
    {
      signupsAllowed: z.boolean({ error: 'Sign-ups allowed must be true or false' }),
      emailConfirmation: z.boolean({ error: 'Email confirmation must be true or false' }),
      siteUrl: urlSchema.nullable(),
      redirectUrls: z
        .array(urlSchema, { error: 'Redirect URLs must be a list of URLs' })
        .max(APP_LIMITS.redirectUrlsMax, `At most ${APP_LIMITS.redirectUrlsMax} redirect URLs`),
      accessTokenLifetime: z
        .number({ error: 'The access-token lifetime must be a number of seconds' })
        .int('The access-token lifetime must be a whole number of seconds')
        .min(APP_LIMITS.accessTokenMinSeconds, 'The access-token lifetime must be at least 300 seconds (5 minutes)')
        .max(APP_LIMITS.accessTokenMaxSeconds, 'The access-token lifetime must be at most 604800 seconds (7 days)'),
      anonymousSignIns: z.boolean({ error: 'Anonymous sign-ins must be true or false' }),
      mfaEnabled: z.boolean({ error: 'Two-factor authentication must be true or false' }),
      passwordReauthentication: z.boolean({ error: 'Password reauthentication must be true or false' }),
      passwordMinLength: passwordMinLengthSchema,
      passwordRequiredCharacters: passwordCharactersSchema,
      providers: z
        .array(oauthProviderInputSchema, { error: 'Providers must be a list' })
        .max(APP_LIMITS.providersMax, `At most ${APP_LIMITS.providersMax} providers`),
    },
    { error: 'Settings must be an object' },
  )
  .partial()
  .strict();

export type AppSettingsPatch = z.infer<typeof appSettingsPatchSchema>;

/** updateAppSchema is the body of PATCH /api/app. */
export const updateAppSchema = z.object({ settings: appSettingsPatchSchema }, { error: 'Send {settings: {…}}' });
export type UpdateAppInput = z.infer<typeof updateAppSchema>;

/** appInfoSchema is GET /api/app: the app's ref, the URL apps use, both keys and the settings. */
export const appInfoSchema = z.object({
  ref: z.string(),
  url: z.string(),
  anonKey: z.string(),
  serviceKey: z.string(),
  settings: appSettingsSchema,
});
export type AppInfo = z.infer<typeof appInfoSchema>;

/** END_USER_LIMITS are the Users page's rules. */
export const END_USER_LIMITS = {
  usernameMin: 3,
  usernameMax: 50,
  emailMax: 100,
  /** Supabase's floor; the app's own password policy (its settings) may ask for more. */
  passwordMin: 6,
  passwordMax: 100,
  /** GET /api/users pages: default and largest page size. */
  pageSizeDefault: 20,
  pageSizeMax: 100,
  searchMax: 100,
} as const;

const endUserUsernameSchema = z
  .string({ error: 'Username must be at least 3 characters' })
  .trim()
  .min(END_USER_LIMITS.usernameMin, 'Username must be at least 3 characters')
  .max(END_USER_LIMITS.usernameMax, 'Username cannot exceed 50 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'Username can only contain letters, numbers, underscores and hyphens');

const endUserEmailSchema = z
  .string({ error: 'Invalid email address' })
  .trim()
  .max(END_USER_LIMITS.emailMax, 'Email cannot exceed 100 characters')
  .pipe(z.email('Invalid email address'));

/** createEndUserSchema is POST /api/users: username, email and a password of at least 8 characters. */
export const createEndUserSchema = z.object({
  username: endUserUsernameSchema,
  email: endUserEmailSchema,
  password: z
    .string({ error: 'Password must be at least 6 characters' })
    .min(END_USER_LIMITS.passwordMin, 'Password must be at least 6 characters')
    .max(END_USER_LIMITS.passwordMax, 'Password is too long'),
});
export type CreateEndUserInput = z.infer<typeof createEndUserSchema>;

/** addUserFormSchema is the Add User dialog: the request plus a matching confirmation. */
export const addUserFormSchema = createEndUserSchema
  .extend({ confirmPassword: z.string({ error: "Passwords don't match" }) })
  .refine((v) => v.password === v.confirmPassword, { message: "Passwords don't match", path: ['confirmPassword'] });
export type AddUserFormInput = z.infer<typeof addUserFormSchema>;

/** updateEndUserSchema is PATCH /api/users/<id> (the Edit dialog): username and/or email. */
export const updateEndUserSchema = z
  .object({ username: endUserUsernameSchema, email: endUserEmailSchema })
  .partial()
  .strict();
export type UpdateEndUserInput = z.infer<typeof updateEndUserSchema>;

/** editUserFormSchema is the Edit dialog's form: both fields. */
export const editUserFormSchema = z.object({ username: endUserUsernameSchema, email: endUserEmailSchema });
export type EditUserFormInput = z.infer<typeof editUserFormSchema>;

/** banEndUserSchema is POST /api/users/<id>/ban: {banned: true} bans the user, false lifts the ban. */
export const banEndUserSchema = z.object({
  banned: z.boolean({ error: 'Banned must be true or false' }),
});

const pageInfoSchema = z.object({
  totalItems: z.number(),
  totalPages: z.number(),
  currentPage: z.number(),
  hasNext: z.boolean(),
  hasPrevious: z.boolean(),
});

/** endUserSummarySchema is one of the app's users as the Users page lists it. */
export const endUserSummarySchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  createdAt: z.string(),
  lastSignInAt: z.string().nullable(),
  confirmed: z.boolean(),
  bannedUntil: z.string().nullable(),
});
export type EndUserSummary = z.infer<typeof endUserSummarySchema>;

/** endUsersPageSchema is GET /api/users: one page and the paging of the console's lists. */
export const endUsersPageSchema = z.object({ data: z.array(endUserSummarySchema), pagination: pageInfoSchema });
export type EndUsersPage = z.infer<typeof endUsersPageSchema>;

/** consoleAccountSummarySchema is one console account as an administrator's "Console accounts" view lists it. */
export const consoleAccountSummarySchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  isAdmin: z.boolean(),
  createdAt: z.string(),
  lastSignInAt: z.string().nullable(),
});
export type ConsoleAccountSummary = z.infer<typeof consoleAccountSummarySchema>;

/** consoleAccountsPageSchema is GET /api/admin/accounts. */
export const consoleAccountsPageSchema = z.object({
  data: z.array(consoleAccountSummarySchema),
  pagination: pageInfoSchema,
});
export type ConsoleAccountsPage = z.infer<typeof consoleAccountsPageSchema>;

/** updateConsoleAccountSchema is PATCH /api/admin/accounts/<id>. */
export const updateConsoleAccountSchema = z
  .object({ isAdmin: z.boolean({ error: 'isAdmin must be true or false' }) })
  .strict();

/**
 * userListQuerySchema is the query of GET /api/users, GET /api/admin/accounts and GET /api/billing/accounts: page,
 * limit and search.
 */
export const userListQuerySchema = z.object({
  page: z.coerce.number({ error: 'page must be a whole number of 1 or more' }).int().min(1).default(1),
  limit: z.coerce
    .number({ error: 'limit must be a whole number from 1 to 100' })
    .int('limit must be a whole number from 1 to 100')
    .min(1, 'limit must be a whole number from 1 to 100')
    .max(END_USER_LIMITS.pageSizeMax, 'limit must be a whole number from 1 to 100')
    .default(END_USER_LIMITS.pageSizeDefault),
  search: z
    .string()
    .trim()
    .max(END_USER_LIMITS.searchMax, 'search can have at most 100 characters')
    .optional()
    .transform((value) => (value ? value : null)),
});

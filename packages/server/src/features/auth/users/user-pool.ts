import type { PasswordPolicy } from '@basalt/shared';
import type { Kysely } from 'kysely';
import type { Db } from '../../../db/database.js';
import type { AccountsTable, AppUsersTable, SystemDatabase } from '../../../db/schema.js';
import type { OAuthProviderConfig } from '../providers/oauth-provider.js';
import type { Metadata } from './accounts.service.js';

// Who the auth services serve: a user pool. The instance's console accounts are one pool; each account's app has
// its end users as another (features/apps/app-user-pool.ts). Sign-up, sign-in, refresh rotation, the user
// endpoints, mail tokens and the admin API are written once against a pool: its users (UserStore), the tables of
// its sessions, refresh tokens and mail tokens (the same columns for every pool), what it tells the bus when
// sessions end, and its settings (confirmation, sign-ups, token lifetime, where mail links may lead).

/** UserRow is what the auth services read of a user, whichever the pool: GoTrue's columns. */
export type UserRow = Pick<
  AccountsTable & AppUsersTable,
  | 'id'
  | 'email'
  | 'username'
  | 'username_key'
  | 'password_hash'
  | 'email_confirmed_at'
  | 'confirmation_sent_at'
  | 'recovery_sent_at'
  | 'new_email'
  | 'email_change_sent_at'
  | 'last_sign_in_at'
  | 'banned_until'
  | 'user_metadata'
  | 'app_metadata'
  | 'is_anonymous'
  | 'invited_at'
  | 'reauthentication_sent_at'
  | 'created_at'
  | 'updated_at'
>;

/** UserChanges are the columns the auth services change; user metadata also updates the username columns. */
export interface UserChanges {
  email?: string;
  password_hash?: string | null;
  email_confirmed_at?: string | null;
  confirmation_sent_at?: string | null;
  recovery_sent_at?: string | null;
  new_email?: string | null;
  email_change_sent_at?: string | null;
  last_sign_in_at?: string | null;
  banned_until?: string | null;
  is_anonymous?: number;
  invited_at?: string | null;
  reauthentication_sent_at?: string | null;
  userMetadata?: Metadata;
  appMetadata?: Metadata;
}

/** NewUser is what creating a user needs; the email is normalized by the store. */
export interface NewUser {
  email: string;
  passwordHash: string | null;
  userMetadata?: Metadata;
  appMetadata?: Metadata;
  /** Confirmed users get email_confirmed_at = now. */
  confirmed: boolean;
  /** An id chosen by an administrator (a lower-case UUID); random otherwise. */
  id?: string;
  /** An anonymous user (signInAnonymously): no address; `email` is ignored. */
  anonymous?: boolean;
  /** Set for an invited user: when the invitation was sent. */
  invitedAt?: string;
}

/** anonymousEmail is what the email column of an anonymous user holds: never a valid address, unique per user. */
export const anonymousEmail = (id: string) => `anonymous:${id}`;

/** UserSearch pages a pool's users, newest first, optionally matching a text in the email or username. */
export interface UserSearch {
  limit: number;
  offset: number;
  search?: string | null;
}

/** PoolTables name a pool's session, refresh-token and mail-token tables (same columns in every pool). */
export interface PoolTables {
  sessions: 'auth_sessions' | 'app_sessions';
  refreshTokens: 'refresh_tokens' | 'app_refresh_tokens';
  oneTimeTokens: 'one_time_tokens' | 'app_one_time_tokens';
  identities: 'identities' | 'app_identities';
  factors: 'mfa_factors' | 'app_mfa_factors';
  challenges: 'mfa_challenges' | 'app_mfa_challenges';
}

/** PoolSettings are how a pool's auth behaves. */
export interface PoolSettings {
  /** autoconfirm: sign-ups are confirmed at once (GoTrue's mailer_autoconfirm). */
  autoconfirm: boolean;
  signupsAllowed: boolean;
  /** Lifetime of access tokens in seconds. */
  accessTokenTtl: number;
  /** Where mail links lead by default. */
  siteUrl: string;
  /** redirectAllowed tells whether a mail link may lead to this redirect_to (else to siteUrl). */
  redirectAllowed(target: URL): boolean;
  /** anonymousSignIns: signInAnonymously() is allowed (off by default; never for console accounts). */
  anonymousSignIns: boolean;
  /** mfaEnabled: users may enroll and verify TOTP factors (GoTrue's MFA TOTP enroll/verify). */
  mfaEnabled: boolean;
  /** passwordReauthentication: a password change needs the nonce of GET /reauthenticate (GoTrue's
   * SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION) unless the session is younger than 24 hours. */
  passwordReauthentication: boolean;
  /** passwordPolicy: an app's rule for new passwords; null for console accounts (the shared sign-up rules). */
  passwordPolicy: PasswordPolicy | null;
  /** providers are the OAuth/OIDC providers users may sign in with (oauth-providers.ts). */
  providers: readonly OAuthProviderConfig[];
}

/** UserStore reads and writes a pool's users (pass a transaction to group writes); writes throw UniqueViolation
 * on a taken email or username. */
export interface UserStore<R extends UserRow> {
  findById(db: Kysely<SystemDatabase>, id: string): Promise<R | undefined>;
  findByEmail(db: Kysely<SystemDatabase>, email: string): Promise<R | undefined>;
  create(db: Kysely<SystemDatabase>, input: NewUser, now: Date): Promise<R>;
  update(db: Kysely<SystemDatabase>, id: string, changes: UserChanges, now: Date): Promise<R | undefined>;
  remove(db: Kysely<SystemDatabase>, id: string): Promise<boolean>;
  listPage(db: Kysely<SystemDatabase>, page: UserSearch): Promise<R[]>;
  count(db: Kysely<SystemDatabase>, search?: string | null): Promise<number>;
}

/** UserPool is one pool of users: its store, its tables, its app (null: console accounts) and its settings. */
export interface UserPool<R extends UserRow> {
  /** The app whose end users these are (its owner and ref), or null for the instance's console accounts. */
  app: { accountId: string; ref: string } | null;
  users: UserStore<R>;
  tables: PoolTables;
  settings: PoolSettings;
  /** sessionsEnded tells every node, after the scope commits, that some of a user's sessions ended. */
  sessionsEnded(scope: Db, userId: string): void;
  /**
   * activityAccountOf is the account whose activity feed records a user's sign-up (the user's own for console
   * accounts, the app's owner for end users), or null when the pool records none.
   */
  activityAccountOf(user: UserRow): string;
  /** otpSalt keeps one app's 6-digit codes from matching another's for the same address. */
  otpSalt: string;
  /** identityScope is the app_id of the pool's identities (the app owner's account id), '' for console accounts. */
  identityScope: string;
  /** vaultAccountOf is the account whose data key seals a user's secrets (TOTP): the user's own, or the app's owner. */
  vaultAccountOf(userId: string): string;
}

/** UserRegistry is what creating a user needs of its pool (user-creation.service.ts): its store and tables. */
export type UserRegistry<R extends UserRow> = Pick<
  UserPool<R>,
  'app' | 'users' | 'tables' | 'identityScope' | 'activityAccountOf'
>;

/** CONSOLE_TABLES are the console accounts' tables. */
export const CONSOLE_TABLES: PoolTables = {
  sessions: 'auth_sessions',
  refreshTokens: 'refresh_tokens',
  oneTimeTokens: 'one_time_tokens',
  identities: 'identities',
  factors: 'mfa_factors',
  challenges: 'mfa_challenges',
};

/** APP_TABLES are the end users' tables (every app's). */
export const APP_TABLES: PoolTables = {
  sessions: 'app_sessions',
  refreshTokens: 'app_refresh_tokens',
  oneTimeTokens: 'app_one_time_tokens',
  identities: 'app_identities',
  factors: 'app_mfa_factors',
  challenges: 'app_mfa_challenges',
};

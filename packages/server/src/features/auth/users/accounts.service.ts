import { randomUUID } from 'node:crypto';
import { type AppUser, usernameSchema } from '@basalt/shared';
import type { Kysely, Updateable } from 'kysely';
import type { AccountsTable, SystemDatabase } from '../../../db/schema.js';
import { invalid } from '../../../http/errors.js';
import {
  type AccountRow,
  claimFirstAccount,
  deleteAccountRow,
  findAccountByEmail,
  findAccountById,
  insertAccount,
  updateAccountRow,
} from './accounts.store.js';
import { serializeMetadata } from './metadata-limits.js';

export { type AccountRow, UniqueViolation } from './accounts.store.js';

/** Metadata is a user_metadata or app_metadata object. */
export type Metadata = Record<string, unknown>;

/** parseMetadata reads a stored metadata column; anything but a JSON object reads as {}. */
export function parseMetadata(text: string | null): Metadata {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Metadata) : {};
  } catch {
    return {};
  }
}

/** mergeMetadata merges a patch key by key; a key whose value is null is removed (GoTrue's rule). */
export function mergeMetadata(current: Metadata, patch: Metadata): Metadata {
  const merged: Metadata = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

/** normalizeEmail is how emails are stored and compared: trimmed and lower-cased. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/**
 * checkMetadataUsername applies the shared username rule to user_metadata.username when it is present,
 * or throws a 400 validation_failed with the form's message.
 */
export function checkMetadataUsername(metadata: Metadata): void {
  const username = metadata.username;
  if (username === undefined || username === null) return;
  if (typeof username !== 'string') throw invalid({ username: ['Username must be a string'] });
  const result = usernameSchema.safeParse(username);
  if (!result.success) throw invalid({ username: [result.error.issues[0]?.message ?? 'Invalid username'] });
}

// The username columns mirror user_metadata.username; username_key makes it unique case-insensitively.
/** usernameColumns are the username columns a user_metadata implies. */
export function usernameColumns(metadata: Metadata): Pick<AccountsTable, 'username' | 'username_key'> {
  const username = typeof metadata.username === 'string' && metadata.username ? metadata.username : null;
  return { username, username_key: username ? username.toLowerCase() : null };
}

/** NewAccount is what createAccount needs; the email is normalized here. */
export interface NewAccount {
  email: string;
  passwordHash: string | null;
  userMetadata?: Metadata;
  appMetadata?: Metadata;
  /** Confirmed accounts get email_confirmed_at = now. */
  confirmed: boolean;
  /** An id chosen by an administrator (a lower-case UUID); random otherwise. */
  id?: string;
  isAdmin?: boolean;
  /** Console accounts are never anonymous; kept for the pools' common NewUser. */
  anonymous?: boolean;
  /** Set for an invited account: when the invitation was sent. */
  invitedAt?: string;
}

/**
 * userColumnsOf is what a new user's row holds in either pool (a console account, an app's end user): the sign-in
 * columns as GoTrue keeps them, nothing sent or confirmed yet but what `input` says.
 */
export function userColumnsOf(input: NewAccount, at: string) {
  const userMetadata = input.userMetadata ?? {};
  return {
    ...usernameColumns(userMetadata),
    password_hash: input.passwordHash,
    email_confirmed_at: input.confirmed ? at : null,
    confirmation_sent_at: null,
    recovery_sent_at: null,
    new_email: null,
    email_change_sent_at: null,
    last_sign_in_at: null,
    banned_until: null,
    user_metadata: serializeMetadata('user_metadata', userMetadata),
    app_metadata: serializeMetadata('app_metadata', input.appMetadata ?? {}),
    invited_at: input.invitedAt ?? null,
    reauthentication_sent_at: null,
    created_at: at,
    updated_at: at,
  };
}

/** accountRowOf is the row of a new account, as createAccount stores it (the test rows are made from it too). */
export function accountRowOf(input: NewAccount, now = new Date()): AccountRow {
  return {
    ...userColumnsOf(input, now.toISOString()),
    id: input.id ?? randomUUID(),
    email: normalizeEmail(input.email),
    is_admin: input.isAdmin ? 1 : 0,
    marketing_emails: 0,
    stripe_customer_id: null,
    stripe_subscription_id: null,
    subscription_status: null,
    subscription_plan: null,
    subscription_renewal_date: null,
    cancel_at_period_end: null,
    subscription_period_start: null,
    subscription_event_at: null,
    is_anonymous: 0,
  };
}

/**
 * createAccount stores a new account and returns it. The first account ever created on the instance is
 * an administrator. Throws UniqueViolation when the email or the username is taken, and a 400 for metadata past
 * its limits (metadata-limits.ts). Call it inside a transaction when other writes belong with it.
 */
export async function createAccount(
  db: Kysely<SystemDatabase>,
  input: NewAccount,
  now = new Date(),
): Promise<AccountRow> {
  const row = accountRowOf(input, now);
  const { id } = row;
  await insertAccount(db, row);
  if ((await claimFirstAccount(db, id)) && !row.is_admin) {
    await updateAccountRow(db, id, { is_admin: 1 });
    row.is_admin = 1;
  }
  return row;
}

/** AccountChanges are the columns callers may change; user metadata also updates the username columns. */
export type AccountChanges = Omit<
  Updateable<AccountsTable>,
  'id' | 'user_metadata' | 'app_metadata' | 'username' | 'username_key' | 'created_at' | 'updated_at'
> & { userMetadata?: Metadata; appMetadata?: Metadata };

/**
 * updateAccount applies changes and returns the updated account; throws UniqueViolation on a clash, and a 400
 * for metadata past its limits.
 */
export async function updateAccount(
  db: Kysely<SystemDatabase>,
  id: string,
  changes: AccountChanges,
  now = new Date(),
): Promise<AccountRow | undefined> {
  const { userMetadata, appMetadata, ...columns } = changes;
  const patch: Updateable<AccountsTable> = { ...columns, updated_at: now.toISOString() };
  if (columns.email !== undefined) patch.email = normalizeEmail(columns.email);
  if (userMetadata) {
    Object.assign(
      patch,
      { user_metadata: serializeMetadata('user_metadata', userMetadata) },
      usernameColumns(userMetadata),
    );
  }
  if (appMetadata) patch.app_metadata = serializeMetadata('app_metadata', appMetadata);
  await updateAccountRow(db, id, patch);
  return findAccountById(db, id);
}

/** findAccount returns an account by id. */
export const findAccount = (db: Kysely<SystemDatabase>, id: string) => findAccountById(db, id);

/** findAccountWithEmail returns the account of an email (compared lower-cased). */
export const findAccountWithEmail = (db: Kysely<SystemDatabase>, email: string) =>
  findAccountByEmail(db, normalizeEmail(email));

/** deleteAccount deletes an account and, by cascade, its sessions, tokens and activity. */
export const deleteAccount = (db: Kysely<SystemDatabase>, id: string) => deleteAccountRow(db, id);

/** usernameOf is the application user's username: the metadata username, else the email's local part, else ''. */
export function usernameOf(account: Pick<AccountRow, 'username' | 'email'>): string {
  if (account.username) return account.username;
  const at = account.email.indexOf('@');
  return at > 0 ? account.email.slice(0, at) : '';
}

/** toAppUser renders an account as the console's application user. */
export function toAppUser(account: AccountRow): AppUser {
  return {
    id: account.id,
    username: usernameOf(account),
    email: account.email ?? '',
    isAdmin: account.is_admin === 1,
    stripeCustomerId: account.stripe_customer_id,
    stripeSubscriptionId: account.stripe_subscription_id,
    subscriptionStatus: account.subscription_status,
    subscriptionPlan: account.subscription_plan,
    subscriptionRenewalDate: account.subscription_renewal_date,
    cancelAtPeriodEnd: account.cancel_at_period_end === null ? null : account.cancel_at_period_end === 1,
    createdAt: account.created_at,
  };
}

import { randomInt } from 'node:crypto';
import { type AppInfo, type OAuthProviderInput, updateAppSchema } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { invalid } from '../../http/errors.js';
import { parseInput } from '../../http/validation.js';
import type { Actor } from '../../lib/actor/actor.js';
import { APP_TABLES, type UserStore } from '../auth/users/user-pool.js';
import { type AppKeyMatch, type AppRecord, toAppRecord } from './app-lookup.js';
import { mergeStoredSettings, readStoredProviders, type StoredProvider } from './app-settings.js';
import { appUserStore } from './app-user-pool.js';
import { type AppUserRow, findAppUserNames } from './app-users.store.js';
import { findAppOfAccount, insertAppIfMissing, updateAppKeys, updateAppSettings } from './apps.store.js';
import type { Apps } from './apps-config.js';
import './app-events.js';

// The app of an account (issue "Apps with their own users"): made on first use, with a ref and two key JWTs
// signed by the instance (role anon / service_role and `ref`). Rolling the keys replaces both; the old ones are
// refused at once on every node (app-lookup.ts hears `app.changed`). Other features read the keys through
// appKeysOf (edge functions hand them to their code).

export type { AppRecord } from './app-lookup.js';

const REF_LENGTH = 20;

/** newAppRef makes a ref: 20 random lower-case letters, like a Supabase project ref. */
function newAppRef(): string {
  let ref = '';
  for (let i = 0; i < REF_LENGTH; i++) ref += String.fromCharCode(97 + randomInt(26));
  return ref;
}

async function signKeys(apps: Apps, ref: string): Promise<{ anonKey: string; serviceKey: string }> {
  const { tokens } = apps.config;
  return { anonKey: await tokens.signAppKey(ref, 'anon'), serviceKey: await tokens.signAppKey(ref, 'service_role') };
}

/** appOfAccount returns an account's app, making it on first use (several callers at once get the same one). */
export async function appOfAccount(apps: Apps, accountId: string): Promise<AppRecord> {
  const { db, config } = apps;
  const existing = await findAppOfAccount(db.kysely, accountId);
  if (existing) return toAppRecord(existing, config);
  const ref = newAppRef();
  const at = new Date().toISOString();
  const keys = await signKeys(apps, ref);
  await insertAppIfMissing(db.kysely, {
    account_id: accountId,
    ref,
    anon_key: keys.anonKey,
    service_key: keys.serviceKey,
    settings: '{}',
    created_at: at,
    updated_at: at,
  });
  const row = await findAppOfAccount(db.kysely, accountId);
  if (!row) throw new Error(`apps: the app of account ${accountId} could not be made`);
  return toAppRecord(row, config);
}

/** AppKeys are what code running for an account needs to call its app: the URL, ref and both keys. */
export interface AppKeys {
  url: string;
  ref: string;
  anonKey: string;
  serviceKey: string;
}

/** appKeysOf returns the current keys of an account's app (made on first use). */
export async function appKeysOf(apps: Apps, accountId: string): Promise<AppKeys> {
  const app = await appOfAccount(apps, accountId);
  return { url: apps.config.siteUrl, ref: app.ref, anonKey: app.anonKey, serviceKey: app.serviceKey };
}

function toAppInfo(apps: Apps, app: AppRecord): AppInfo {
  return {
    ref: app.ref,
    url: apps.config.siteUrl,
    anonKey: app.anonKey,
    serviceKey: app.serviceKey,
    settings: app.settings,
  };
}

/** getApp is GET /api/app: the actor's app with its keys and settings. */
export async function getApp(apps: Apps, actor: Actor): Promise<AppInfo> {
  return toAppInfo(apps, await appOfAccount(apps, actor.accountId));
}

/** rollAppKeys issues new keys for the actor's app; the old ones stop working on every node once it commits. */
export async function rollAppKeys(apps: Apps, actor: Actor): Promise<AppInfo> {
  const app = await appOfAccount(apps, actor.accountId);
  const keys = await signKeys(apps, app.ref);
  await apps.db.transaction(async (scope) => {
    await updateAppKeys(scope.kysely, actor.accountId, keys, new Date().toISOString());
    scope.publish('app.changed', { accountId: actor.accountId, ref: app.ref, kind: 'keys' });
  });
  return toAppInfo(apps, { ...app, ...keys });
}

const PROVIDER_NAMES = { github: 'GitHub', google: 'Google', gitlab: 'GitLab' } as const;

/** providerSlug makes the `custom:<slug>` of an OIDC provider from its name. */
const providerSlug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'oidc';

// The providers sent, each with its client secret sealed: a new one sealed now, a missing one kept from `stored`.
async function storedProvidersOf(
  { db, config }: Apps,
  accountId: string,
  inputs: OAuthProviderInput[],
  stored: StoredProvider[],
): Promise<StoredProvider[]> {
  const { secrets } = config;
  const result: StoredProvider[] = [];
  for (const [index, input] of inputs.entries()) {
    const id = input.kind === 'oidc' ? `custom:${providerSlug(input.name ?? '')}` : input.kind;
    if (result.some((p) => p.id === id)) {
      throw invalid({ [`settings.providers.${index}`]: [`The provider ${id} is configured twice`] });
    }
    const before = stored.find((p) => p.id === id);
    const clientSecretSealed = input.clientSecret
      ? await secrets.seal(db, accountId, `oauth provider ${id}`, input.clientSecret)
      : (before?.clientSecretSealed ?? null);
    if (!clientSecretSealed) {
      throw invalid({ [`settings.providers.${index}.clientSecret`]: ['Enter the client secret'] });
    }
    result.push({
      id,
      kind: input.kind,
      name: input.name ?? (input.kind === 'oidc' ? id : PROVIDER_NAMES[input.kind]),
      clientId: input.clientId,
      url: input.url ?? null,
      clientSecretSealed,
    });
  }
  return result;
}

/** updateApp is PATCH /api/app {settings}: the settings sent change, the others stay. */
export async function updateApp(apps: Apps, actor: Actor, input: unknown): Promise<AppInfo> {
  const { settings } = parseInput(updateAppSchema, input);
  const { db } = apps;
  const existing = await findAppOfAccount(db.kysely, (await appOfAccount(apps, actor.accountId)).accountId);
  const { providers, ...flags } = settings;
  const patch = providers
    ? {
        ...flags,
        providers: await storedProvidersOf(
          apps,
          actor.accountId,
          providers,
          readStoredProviders(existing?.settings ?? '{}'),
        ),
      }
    : flags;
  await db.transaction(async (scope) => {
    const row = await findAppOfAccount(scope.kysely, actor.accountId);
    if (!row) throw new Error('apps: the app vanished');
    await updateAppSettings(
      scope.kysely,
      actor.accountId,
      mergeStoredSettings(row.settings, patch),
      new Date().toISOString(),
    );
    scope.publish('app.changed', { accountId: actor.accountId, ref: row.ref, kind: 'settings' });
  });
  return getApp(apps, actor);
}

/**
 * matchAppKey recognises one of an app's current keys (cached per process, exact on every node through the bus),
 * or null for anything else, a rolled key included.
 */
export function matchAppKey(
  apps: Apps,
  key: string,
):
  | { accountId: string; ref: string; role: 'anon' | 'service_role' }
  | null
  | Promise<{ accountId: string; ref: string; role: 'anon' | 'service_role' } | null> {
  const toIdentity = (match: AppKeyMatch | null) =>
    match ? { accountId: match.app.accountId, ref: match.app.ref, role: match.role } : null;
  const found = apps.lookup.matchKey(key);
  return found instanceof Promise ? found.then(toIdentity) : toIdentity(found);
}

/** appOwnerOf names the account owning the app of a ref (cached per process), or null. */
export function appOwnerOf(apps: Apps, ref: string): string | null | Promise<string | null> {
  const found = apps.lookup.byRef(ref);
  return found instanceof Promise ? found.then((app) => app?.accountId ?? null) : (found?.accountId ?? null);
}

/** appIdentitiesOf names the tables and scope of an account's app users' identities (the Users page keeps them). */
export function appIdentitiesOf(accountId: string): { tables: typeof APP_TABLES; identityScope: string } {
  return { tables: APP_TABLES, identityScope: accountId };
}

/** appUsersOf is the store of an account's app users (the Users page reads and writes through it). */
export function appUsersOf(accountId: string): UserStore<AppUserRow> {
  return appUserStore(accountId);
}

/**
 * appUserNamesOf names the app users among `ids` (history's actors): id → username or email. Ids of users deleted
 * since are left out.
 */
export function appUserNamesOf(db: Db, accountId: string, ids: string[]): Promise<Map<string, string>> {
  return findAppUserNames(db.kysely, accountId, [...new Set(ids)].slice(0, 1000));
}

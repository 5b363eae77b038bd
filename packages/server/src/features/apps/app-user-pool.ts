import { randomUUID } from 'node:crypto';
import type { Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { AppUsersTable } from '../../db/schema.js';
import { type AuthBase, type AuthContext, type AuthDeps, createAuthDeps, poolDeps } from '../auth/auth-deps.js';
import type { AuthPools } from '../auth/gateway/auth-gateway.js';
import { type AccountRow, normalizeEmail, userColumnsOf, usernameColumns } from '../auth/users/accounts.service.js';
import { serializeMetadata } from '../auth/users/metadata-limits.js';
import { APP_TABLES, anonymousEmail, type NewUser, type UserPool, type UserStore } from '../auth/users/user-pool.js';
import type { AppRecord } from './app-lookup.js';
import { allowedRedirect, appPasswordPolicy } from './app-settings.js';
import {
  type AppUserRow,
  countAppUsers,
  deleteAppUser,
  findAppUserByEmail,
  findAppUserById,
  insertAppUser,
  listAppUsersPage,
  updateAppUserRow,
} from './app-users.store.js';
import type { Apps } from './apps-config.js';

// An app's end users as a user pool of the auth services (features/auth/users/user-pool.ts): /auth/v1 with an app's
// key signs up, signs in and manages that app's users with the very services console accounts use. Each app's
// services are built on first use and rebuilt when its settings or keys change (`app.changed`).

/** appUserRowOf is the row of an app's new end user, as its store writes it (the test rows are made from it too). */
export function appUserRowOf(appId: string, input: NewUser, now = new Date()): AppUserRow {
  const id = input.id ?? randomUUID();
  return {
    ...userColumnsOf(input, now.toISOString()),
    id,
    app_id: appId,
    email: input.anonymous ? anonymousEmail(id) : normalizeEmail(input.email),
    is_anonymous: input.anonymous ? 1 : 0,
  };
}

/** appUserStore is the store of one app's users. */
export function appUserStore(appId: string): UserStore<AppUserRow> {
  return {
    findById: (db, id) => findAppUserById(db, appId, id),
    findByEmail: (db, email) => findAppUserByEmail(db, appId, normalizeEmail(email)),
    async create(db, input, now) {
      const row = appUserRowOf(appId, input, now);
      await insertAppUser(db, row);
      return row;
    },
    async update(db, id, changes, now) {
      const { userMetadata, appMetadata, ...columns } = changes;
      const patch: Updateable<AppUsersTable> = { ...columns, updated_at: now.toISOString() };
      if (columns.email !== undefined) patch.email = normalizeEmail(columns.email);
      if (userMetadata) {
        Object.assign(
          patch,
          { user_metadata: serializeMetadata('user_metadata', userMetadata) },
          usernameColumns(userMetadata),
        );
      }
      if (appMetadata) patch.app_metadata = serializeMetadata('app_metadata', appMetadata);
      await updateAppUserRow(db, appId, id, patch);
      return findAppUserById(db, appId, id);
    },
    remove: (db, id) => deleteAppUser(db, appId, id),
    listPage: (db, page) => listAppUsersPage(db, appId, page),
    count: (db, search) => countAppUsers(db, appId, search),
  };
}

/** appUserPool is the pool of one app's end users, with the app's settings. */
export function appUserPool({ db, config }: Apps, app: AppRecord): UserPool<AppUserRow> {
  const { secrets } = config;
  // The instance's URL is read at each use: without SITE_URL it is the address of the request (apps-config.ts).
  const siteUrlOf = () => app.settings.siteUrl ?? config.siteUrl;
  return {
    app: { accountId: app.accountId, ref: app.ref },
    users: appUserStore(app.accountId),
    tables: APP_TABLES,
    settings: {
      autoconfirm: !app.settings.emailConfirmation,
      signupsAllowed: app.settings.signupsAllowed,
      accessTokenTtl: app.settings.accessTokenLifetime,
      get siteUrl() {
        return siteUrlOf();
      },
      redirectAllowed: (target) => allowedRedirect(target, siteUrlOf(), app.settings.redirectUrls),
      anonymousSignIns: app.settings.anonymousSignIns,
      mfaEnabled: app.settings.mfaEnabled,
      passwordReauthentication: app.settings.passwordReauthentication,
      passwordPolicy: appPasswordPolicy(app.settings),
      providers: app.providers.map(({ clientSecretSealed, ...provider }) => ({
        ...provider,
        clientSecret: async () => {
          if (!clientSecretSealed) throw new Error(`apps: provider ${provider.id} has no client secret`);
          return secrets.open(db, app.accountId, `oauth provider ${provider.id}`, clientSecretSealed);
        },
      })),
    },
    sessionsEnded: (scope, userId) => scope.publish('app-sessions.ended', { userId }),
    activityAccountOf: () => app.accountId,
    otpSalt: `${app.ref}:`,
    identityScope: app.accountId,
    vaultAccountOf: () => app.accountId,
  };
}

type MaybePromise<T> = T | Promise<T>;

/**
 * appAuthPools are the pools /auth/v1 serves (features/auth/gateway/auth-gateway.ts): the console's, and each app's,
 * found by one of its current keys or by its ref. An app's services are kept per process until `app.changed`.
 */
export function appAuthPools(consoleDeps: AuthDeps<AccountRow>, apps: Apps): AuthPools {
  const base: AuthBase = consoleDeps.base;
  const { db, lookup } = apps;
  const built = new Map<string, { app: AppRecord; deps: AuthDeps<AppUserRow> }>();
  db.bus.subscribe('app.changed', ({ ref }) => {
    if (ref === null) built.clear();
    else built.delete(ref);
  });
  // A deleted account's app goes with it (its services are built again for no one).
  db.bus.subscribe('account.deleted', ({ accountId }) => {
    for (const [ref, { app }] of built) if (app.accountId === accountId) built.delete(ref);
  });
  db.bus.onReset(() => built.clear());

  const depsFor = (app: AppRecord): AuthDeps<AppUserRow> => {
    const known = built.get(app.ref);
    // The lookup's record is replaced when the app changes: services built from an older one are rebuilt.
    if (known && known.app === app) return known.deps;
    const deps = poolDeps(base, appUserPool(apps, app), `app:${app.ref}`);
    built.set(app.ref, { app, deps });
    return deps;
  };
  const then = <T, U>(value: MaybePromise<T>, fn: (resolved: T) => U): MaybePromise<U> =>
    value instanceof Promise ? value.then(fn) : fn(value);

  return {
    console: consoleDeps,
    appOfKey: (key) => then(lookup.matchKey(key), (match) => (match ? depsFor(match.app) : null)),
    appOfRef: (ref) => then(lookup.byRef(ref), (app) => (app ? depsFor(app) : null)),
  };
}

/**
 * createAuth builds the auth services of every pool over the instance's context: the console accounts' now, each
 * app's on first use. TOTP secrets are sealed with the apps' sealer (the secrets vault, under each account's data
 * key), as apps' OAuth client secrets are.
 */
export async function createAuth(ctx: AuthContext, apps: Apps): Promise<AuthPools> {
  return appAuthPools(await createAuthDeps(ctx, { secrets: apps.config.secrets }), apps);
}

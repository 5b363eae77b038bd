import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { SystemDatabase } from '../../../db/schema.js';
import type { AuthDeps } from '../auth-deps.js';
import { type Metadata, parseMetadata } from '../users/accounts.service.js';
import {
  findIdentityByProvider,
  type IdentityRow,
  insertIdentity,
  listIdentitiesOf,
  updateIdentityRow,
} from '../users/identities.store.js';
import type { NewUser, UserPool, UserRegistry, UserRow } from '../users/user-pool.js';

// Identities are how a user signs in: `email` (address and password, mailed codes and links) and the OAuth/OIDC
// providers. Like GoTrue, app_metadata.provider names the first and app_metadata.providers lists them all; both are
// stored with the user so that access tokens carry them without another read.

type Trx = Kysely<SystemDatabase>;

/** NewIdentity is a provider's identity of a user: its subject, address and identity data. */
export interface NewIdentity {
  provider: string;
  providerId: string;
  email: string | null;
  data: Metadata;
}

/** emailIdentityData is the identity data of a user's email identity (GoTrue's claims). */
export function emailIdentityData(user: Pick<UserRow, 'id' | 'email' | 'email_confirmed_at'>): Metadata {
  return { sub: user.id, email: user.email, email_verified: user.email_confirmed_at !== null, phone_verified: false };
}

/** storeIdentity inserts an identity of a user in the pool. */
export async function storeIdentity<R extends UserRow>(
  deps: { pool: Pick<UserPool<R>, 'identityScope' | 'tables'> },
  trx: Trx,
  userId: string,
  identity: NewIdentity,
  now: Date,
): Promise<IdentityRow> {
  const at = now.toISOString();
  const row: IdentityRow = {
    id: randomUUID(),
    account_id: userId,
    app_id: deps.pool.identityScope,
    provider: identity.provider,
    provider_id: identity.providerId,
    identity_data: JSON.stringify(identity.data),
    email: identity.email?.toLowerCase() ?? null,
    last_sign_in_at: at,
    created_at: at,
    updated_at: at,
  };
  await insertIdentity(trx, deps.pool.tables, row);
  return row;
}

/**
 * createUserWithIdentity creates a user and its first identity (`email` unless another is given; none for an
 * anonymous user), with GoTrue's provider keys in app_metadata. Throws UniqueViolation on a taken address.
 */
export async function createUserWithIdentity<R extends UserRow>(
  deps: { pool: UserRegistry<R> },
  trx: Trx,
  input: NewUser & { identity?: Omit<NewIdentity, 'providerId'> & { providerId?: string } },
  now: Date,
): Promise<R> {
  const provider = input.anonymous ? null : (input.identity?.provider ?? 'email');
  const appMetadata = provider ? { provider, providers: [provider], ...input.appMetadata } : (input.appMetadata ?? {});
  const user = await deps.pool.users.create(trx, { ...input, appMetadata }, now);
  if (!provider) return user;
  const identity: NewIdentity = input.identity
    ? { ...input.identity, providerId: input.identity.providerId ?? user.id }
    : { provider: 'email', providerId: user.id, email: user.email, data: emailIdentityData(user) };
  await storeIdentity(deps, trx, user.id, identity, now);
  return user;
}

/** refreshProviders stores app_metadata.providers from a user's identities (provider: the first one kept). */
export async function refreshProviders<R extends UserRow>(deps: AuthDeps<R>, trx: Trx, user: R, now: Date): Promise<R> {
  const identities = await listIdentitiesOf(trx, deps.pool.tables, [user.id]);
  const providers = [...new Set(identities.map((i) => i.provider))];
  const stored = parseMetadata(user.app_metadata);
  const first =
    typeof stored.provider === 'string' && providers.includes(stored.provider) ? stored.provider : providers[0];
  const appMetadata: Metadata = { ...stored, providers };
  if (first) appMetadata.provider = first;
  else delete appMetadata.provider;
  return (await deps.pool.users.update(trx, user.id, { appMetadata }, now)) ?? user;
}

/**
 * storeEmailIdentity keeps a user's email identity in step with its address, making it when missing, for callers
 * outside the auth services (the Users page's own user writes): `tables` and `scope` are the pool's.
 */
export async function storeEmailIdentity(
  trx: Trx,
  pool: { tables: UserPool<UserRow>['tables']; identityScope: string },
  user: UserRow,
  now: Date,
): Promise<void> {
  if (user.is_anonymous === 1) return;
  const at = now.toISOString();
  const existing = await findIdentityByProvider(trx, pool.tables, pool.identityScope, 'email', user.id);
  if (existing) {
    await updateIdentityRow(trx, pool.tables, existing.id, {
      email: user.email,
      identity_data: JSON.stringify({ ...parseMetadata(existing.identity_data), ...emailIdentityData(user) }),
      updated_at: at,
    });
    return;
  }
  await insertIdentity(trx, pool.tables, {
    id: randomUUID(),
    account_id: user.id,
    app_id: pool.identityScope,
    provider: 'email',
    provider_id: user.id,
    identity_data: JSON.stringify(emailIdentityData(user)),
    email: user.email,
    last_sign_in_at: null,
    created_at: at,
    updated_at: at,
  });
}

/**
 * syncEmailIdentity keeps the email identity in step with the user's address (after an email change, a
 * confirmation, or an anonymous user's first address), creating it when missing.
 */
export async function syncEmailIdentity<R extends UserRow>(
  deps: AuthDeps<R>,
  trx: Trx,
  user: R,
  now: Date,
): Promise<R> {
  if (user.is_anonymous === 1) return user;
  const t = deps.pool.tables;
  const existing = await findIdentityByProvider(trx, t, deps.pool.identityScope, 'email', user.id);
  if (existing) {
    await updateIdentityRow(trx, t, existing.id, {
      email: user.email,
      identity_data: JSON.stringify({ ...parseMetadata(existing.identity_data), ...emailIdentityData(user) }),
      updated_at: now.toISOString(),
    });
    return user;
  }
  await storeIdentity(
    deps,
    trx,
    user.id,
    { provider: 'email', providerId: user.id, email: user.email, data: emailIdentityData(user) },
    now,
  );
  return refreshProviders(deps, trx, user, now);
}

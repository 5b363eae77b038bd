import type { Kysely, Selectable } from 'kysely';
import type { IdentitiesTable, SystemDatabase } from '../../../db/schema.js';
import type { PoolTables } from './user-pool.js';

// The SQL of identities (email and OAuth/OIDC providers). Both pools keep them in tables of the same columns;
// `scope` is the pool's app_id ('' for console accounts), so an app's identity never matches another app's.

type Db = Kysely<SystemDatabase>;

/** IdentityRow is one stored identity. */
export type IdentityRow = Selectable<IdentitiesTable>;

/** listIdentitiesOf returns the identities of some users, oldest first. */
export function listIdentitiesOf(db: Db, t: PoolTables, userIds: readonly string[]): Promise<IdentityRow[]> {
  if (userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom(t.identities)
    .selectAll()
    .where('account_id', 'in', [...userIds])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** findIdentityByProvider returns the identity of a provider's subject within a pool, or undefined. */
export function findIdentityByProvider(
  db: Db,
  t: PoolTables,
  scope: string,
  provider: string,
  providerId: string,
): Promise<IdentityRow | undefined> {
  return db
    .selectFrom(t.identities)
    .selectAll()
    .where('app_id', '=', scope)
    .where('provider', '=', provider)
    .where('provider_id', '=', providerId)
    .executeTakeFirst();
}

/** insertIdentity stores an identity. */
export async function insertIdentity(db: Db, t: PoolTables, row: IdentityRow): Promise<void> {
  await db.insertInto(t.identities).values(row).execute();
}

/** updateIdentityRow changes an identity's data, email and sign-in time. */
export async function updateIdentityRow(
  db: Db,
  t: PoolTables,
  id: string,
  patch: Partial<Pick<IdentityRow, 'identity_data' | 'email' | 'last_sign_in_at' | 'updated_at'>>,
): Promise<void> {
  await db.updateTable(t.identities).set(patch).where('id', '=', id).execute();
}

/** deleteIdentityOf deletes one identity of a user; true when it existed. */
export async function deleteIdentityOf(db: Db, t: PoolTables, userId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom(t.identities)
    .where('account_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

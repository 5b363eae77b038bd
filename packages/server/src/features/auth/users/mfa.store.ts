import type { Kysely, Selectable } from 'kysely';
import type { MfaChallengesTable, MfaFactorsTable, SystemDatabase } from '../../../db/schema.js';
import type { PoolTables } from './user-pool.js';

// The SQL of MFA factors and their challenges, in the pool's tables.

type Db = Kysely<SystemDatabase>;

/** FactorRow is one stored factor (its secret sealed). */
export type FactorRow = Selectable<MfaFactorsTable>;

/** ChallengeRow is one challenge of a factor. */
export type ChallengeRow = Selectable<MfaChallengesTable>;

/** listFactorsOf returns the factors of some users, oldest first. */
export function listFactorsOf(db: Db, t: PoolTables, userIds: readonly string[]): Promise<FactorRow[]> {
  if (userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom(t.factors)
    .selectAll()
    .where('account_id', 'in', [...userIds])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** findFactorOf returns one factor of a user, or undefined (another user's factor is not found). */
export function findFactorOf(db: Db, t: PoolTables, userId: string, id: string): Promise<FactorRow | undefined> {
  return db.selectFrom(t.factors).selectAll().where('account_id', '=', userId).where('id', '=', id).executeTakeFirst();
}

/** countVerifiedFactors counts a user's verified factors. */
export async function countVerifiedFactors(db: Db, t: PoolTables, userId: string): Promise<number> {
  const row = await db
    .selectFrom(t.factors)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', userId)
    .where('status', '=', 'verified')
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** insertFactor stores a factor. */
export async function insertFactor(db: Db, t: PoolTables, row: FactorRow): Promise<void> {
  await db.insertInto(t.factors).values(row).execute();
}

/** updateFactorRow changes a factor's status or timestamps. */
export async function updateFactorRow(
  db: Db,
  t: PoolTables,
  id: string,
  patch: Partial<Pick<FactorRow, 'status' | 'last_challenged_at' | 'last_used_step' | 'updated_at'>>,
): Promise<void> {
  await db.updateTable(t.factors).set(patch).where('id', '=', id).execute();
}

/**
 * claimTotpStep records that a TOTP code of `step` was accepted, unless one of that step or a later one was
 * accepted before (a replay); false then. The condition makes concurrent verifications of one code race safely.
 */
export async function claimTotpStep(db: Db, t: PoolTables, id: string, step: number, at: string): Promise<boolean> {
  const result = await db
    .updateTable(t.factors)
    .set({ last_used_step: step, updated_at: at })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** deleteFactorOf deletes one factor of a user (its challenges cascade); true when it existed. */
export async function deleteFactorOf(db: Db, t: PoolTables, userId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom(t.factors)
    .where('account_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** deleteUnverifiedFactors deletes a user's unverified factors (once one is verified, or when they expired). */
export async function deleteUnverifiedFactors(
  db: Db,
  t: PoolTables,
  userId: string,
  olderThan?: string,
): Promise<void> {
  let query = db.deleteFrom(t.factors).where('account_id', '=', userId).where('status', '=', 'unverified');
  if (olderThan) query = query.where('created_at', '<', olderThan);
  await query.execute();
}

/** insertChallenge stores a challenge. */
export async function insertChallenge(db: Db, t: PoolTables, row: ChallengeRow): Promise<void> {
  await db.insertInto(t.challenges).values(row).execute();
}

/** findChallengeOf returns a challenge of a factor, or undefined. */
export function findChallengeOf(
  db: Db,
  t: PoolTables,
  factorId: string,
  id: string,
): Promise<ChallengeRow | undefined> {
  return db
    .selectFrom(t.challenges)
    .selectAll()
    .where('factor_id', '=', factorId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** markChallengeVerified marks a challenge used; false when another request used it first. */
export async function markChallengeVerified(db: Db, t: PoolTables, id: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable(t.challenges)
    .set({ verified_at: at })
    .where('id', '=', id)
    .where('verified_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** deleteChallenge removes a challenge (an expired one). */
export async function deleteChallenge(db: Db, t: PoolTables, id: string): Promise<void> {
  await db.deleteFrom(t.challenges).where('id', '=', id).execute();
}

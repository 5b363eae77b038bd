import type { Kysely, Selectable } from 'kysely';
import type { AuthFlowStatesTable, SystemDatabase } from '../../../db/schema.js';

// The SQL of flow states: the PKCE and OAuth sign-ins under way, of every pool in one table (an OAuth callback
// finds its flow by the state alone). `app_ref` names the pool ('' for console accounts).

type Db = Kysely<SystemDatabase>;

/** FlowStateRow is one flow under way. */
export type FlowStateRow = Selectable<AuthFlowStatesTable>;

/** insertFlowState stores a flow, and forgets flows older than `expiredBefore`. */
export async function insertFlowState(db: Db, row: FlowStateRow, expiredBefore: string): Promise<void> {
  await db.deleteFrom('auth_flow_states').where('created_at', '<', expiredBefore).execute();
  await db.insertInto('auth_flow_states').values(row).execute();
}

/** findFlowState returns a flow by its id (the OAuth state), or undefined. */
export function findFlowState(db: Db, id: string): Promise<FlowStateRow | undefined> {
  return db.selectFrom('auth_flow_states').selectAll().where('id', '=', id).executeTakeFirst();
}

/** findFlowStateByAuthCode returns the flow an auth code was issued for, within a pool, or undefined. */
export function findFlowStateByAuthCode(db: Db, appRef: string, codeHash: string): Promise<FlowStateRow | undefined> {
  return db
    .selectFrom('auth_flow_states')
    .selectAll()
    .where('auth_code_hash', '=', codeHash)
    .where('app_ref', '=', appRef)
    .executeTakeFirst();
}

/**
 * issueAuthCode records the user a flow signed in and its auth code, unless the flow already has a user (a second
 * callback with the same state); false then.
 */
export async function issueAuthCodeFor(
  db: Db,
  id: string,
  changes: Pick<FlowStateRow, 'user_id' | 'auth_code_hash' | 'auth_code_issued_at'> &
    Partial<Pick<FlowStateRow, 'provider_token' | 'provider_refresh_token'>>,
): Promise<boolean> {
  const result = await db
    .updateTable('auth_flow_states')
    .set(changes)
    .where('id', '=', id)
    .where('user_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** deleteFlowState removes a flow; false when another request removed it first (single use). */
export async function deleteFlowState(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('auth_flow_states').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { userTableName } from '../db/identifiers.js';

// A cheap picture of what the instance holds, for "a refused request changes nothing" (DESIGN.md principle 6):
// accounts, table definitions, each user table's row count and latest update, and the counts and newest ids of
// history, activity, checkpoints, keys, sessions, refresh tokens and one-time tokens. Usage stamps that a
// refused request may rightly touch (a key's last_used_at, rate-limit counters, the system log) are left out.

/** stateFingerprint reads the picture as one JSON text; equal texts mean nothing that matters changed. */
export async function stateFingerprint(db: Db): Promise<string> {
  const k = db.kysely;
  const accounts = await k.selectFrom('accounts').selectAll().orderBy('id').execute();
  const tables = await k
    .selectFrom('user_tables')
    .select(['id', 'account_id', 'name', 'description', 'schema', 'schema_version', 'updated_at'])
    .orderBy('id')
    .execute();
  const rows = [];
  for (const table of tables) {
    const name = sql.raw(`"${userTableName(Number(table.id))}"`);
    const { rows: found } = await sql<{ n: number | string; latest: unknown }>`
      SELECT count(*) AS n, max(updated_at) AS latest FROM ${name}`.execute(k);
    rows.push({ table: Number(table.id), ...found[0] });
  }
  const keys = await k
    .selectFrom('api_keys')
    .select(['id', 'account_id', 'name', 'key_hash', 'prefix'])
    .orderBy('id')
    .execute();
  const counted = async (table: 'change_history' | 'activity_logs' | 'checkpoints' | 'refresh_tokens') =>
    k
      .selectFrom(table)
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.max('id').as('last')])
      .executeTakeFirst();
  const sessions = await k.selectFrom('auth_sessions').select('id').orderBy('id').execute();
  const revoked = await k
    .selectFrom('refresh_tokens')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('revoked', '=', 1)
    .executeTakeFirst();
  const oneTime = await k
    .selectFrom('one_time_tokens')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  return JSON.stringify(
    {
      accounts,
      tables,
      rows,
      keys,
      history: await counted('change_history'),
      activity: await counted('activity_logs'),
      checkpoints: await counted('checkpoints'),
      refreshTokens: await counted('refresh_tokens'),
      revoked,
      sessions,
      oneTime,
    },
    (_key, value) => (typeof value === 'bigint' ? String(value) : value),
  );
}

import { sql } from 'kysely';
import type { Db } from './database.js';

/**
 * serverIdentity names Basalt's own database in a way a connection to it can be matched against: on PostgreSQL
 * the database's name and the server's start time (to the microsecond), which no other server shares; on SQLite
 * null, since a file is never reachable as a network target.
 */
export async function serverIdentity(db: Db): Promise<string | null> {
  if (db.dialect.name === 'sqlite') return null;
  const { rows } = await sql<{ identity: string }>`
    select current_database() || '@' || pg_postmaster_start_time()::text as identity`.execute(db.kysely);
  return rows[0]?.identity ?? null;
}

/** SERVER_IDENTITY_SQL is the same question asked of a PostgreSQL target (features/sql). */
export const SERVER_IDENTITY_SQL = "select current_database() || '@' || pg_postmaster_start_time()::text as identity";

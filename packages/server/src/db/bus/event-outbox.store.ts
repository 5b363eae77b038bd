import type pg from 'pg';

// The bus's SQL on PostgreSQL: NOTIFY, and the event_outbox table (migration 0007) for events too large for one.
// Each is one statement, so one transaction: a notification leaves at its commit, with the row it names.

/** Queryable is a pg pool or client. */
export type Queryable = Pick<pg.Pool, 'query'>;

/** notifyEach sends the payloads on a channel, in their order, in one round trip. */
export async function notifyEach(db: Queryable, channel: string, payloads: string[]): Promise<void> {
  // unnest returns the array in order and pg_notify queues each row's payload as the scan reaches it.
  await db.query('SELECT count(pg_notify($1, p)) FROM unnest($2::text[]) AS p', [channel, payloads]);
}

/**
 * insertOutboxRowAndNotify stores a payload in event_outbox and sends, on the channel, `head` followed by the
 * new row's id and `}`.
 */
export async function insertOutboxRowAndNotify(
  db: Queryable,
  options: { channel: string; payload: string; head: string; createdAt: string },
): Promise<void> {
  await db.query(
    `WITH added AS (INSERT INTO event_outbox (payload, created_at) VALUES ($2, $3) RETURNING id)
     SELECT pg_notify($1, $4::text || added.id::text || '}') FROM added`,
    [options.channel, options.payload, options.createdAt, options.head],
  );
}

/** findOutboxPayload reads an outbox row's payload, or null when it is gone. */
export async function findOutboxPayload(db: Queryable, id: number): Promise<string | null> {
  const { rows } = await db.query<{ payload: string }>('SELECT payload FROM event_outbox WHERE id = $1', [id]);
  return rows[0]?.payload ?? null;
}

/** deleteOldOutboxRows deletes up to `limit` rows created before `before` (ISO time) and says how many it did. */
export async function deleteOldOutboxRows(db: Queryable, before: string, limit: number): Promise<number> {
  const result = await db.query(
    `DELETE FROM event_outbox WHERE id IN
       (SELECT id FROM event_outbox WHERE created_at < $1 ORDER BY id LIMIT $2)`,
    [before, limit],
  );
  return result.rowCount ?? 0;
}

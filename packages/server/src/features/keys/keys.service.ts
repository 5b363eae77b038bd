import { API_KEY_PREFIX, type ApiKey, type CreatedApiKey, createApiKeySchema } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { notFound } from '../../http/errors.js';
import { parseInput } from '../../http/validation.js';
import type { Actor } from '../../lib/actor/actor.js';
import { randomToken, sha256 } from '../../lib/crypto/tokens.js';
import { recordActivity } from '../activity/activity.service.js';
import { type ApiKeyRow, deleteApiKeyOf, insertApiKey, listApiKeysOf } from './keys.store.js';

// API keys of the public record API (DESIGN.md "APIs"): a key grants its account's access, its secret is
// shown once on creation and stored only as a sha256, with a short prefix to tell keys apart in the console.
// Creating and deleting a key write an activity entry in the same transaction.

// 32 random bytes: 256 bits, far beyond guessing, which is why a fast hash is enough to store them.
const SECRET_BYTES = 32;
// The prefix shown for a key: `bsk_` and 8 characters of the secret (48 bits reveal nothing useful).
const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;

const keyNotFound = () => notFound('API key not found', 'api_key_not_found');

function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: Number(row.id),
    name: row.name,
    prefix: row.prefix,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}

/** listApiKeys lists the actor's keys, oldest first, without their secrets. */
export async function listApiKeys(db: Db, actor: Actor): Promise<ApiKey[]> {
  return (await listApiKeysOf(db.kysely, actor.accountId)).map(toApiKey);
}

/** createApiKey makes a key named by createApiKeySchema and returns it with its secret, the only time it is shown. */
export async function createApiKey(db: Db, actor: Actor, input: unknown): Promise<CreatedApiKey> {
  const { name } = parseInput(createApiKeySchema, input);
  const key = `${API_KEY_PREFIX}${randomToken(SECRET_BYTES)}`;
  const now = new Date();
  const row = await db.transaction(async ({ kysely: trx }) => {
    const inserted = await insertApiKey(trx, {
      accountId: actor.accountId,
      name,
      keyHash: sha256(key),
      prefix: key.slice(0, DISPLAY_PREFIX_LENGTH),
      now: now.toISOString(),
    });
    await recordActivity(
      trx,
      { accountId: actor.accountId, action: 'CREATE', resource: 'apiKeys', details: { name } },
      now,
    );
    return inserted;
  });
  db.publish('key.created', { accountId: actor.accountId });
  return { id: Number(row.id), name: row.name, prefix: row.prefix, createdAt: row.created_at, key };
}

/** deleteApiKey deletes one of the actor's keys; every node refuses it once the deletion has committed. */
export async function deleteApiKey(db: Db, actor: Actor, id: number): Promise<void> {
  if (!Number.isSafeInteger(id) || id < 1) throw keyNotFound();
  const now = new Date();
  await db.transaction(async (scope) => {
    const trx = scope.kysely;
    const row = await deleteApiKeyOf(trx, actor.accountId, id);
    if (!row) throw keyNotFound();
    scope.publish('key.revoked', { accountId: actor.accountId, keyHash: row.key_hash });
    await recordActivity(
      trx,
      { accountId: actor.accountId, action: 'DELETE', resource: 'apiKeys', details: { name: row.name } },
      now,
    );
  });
}

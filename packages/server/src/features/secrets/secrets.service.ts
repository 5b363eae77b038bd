import { createSecretSchema, SECRET_LIMITS, type Secret, type SecretValue } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { conflict, notFound } from '../../http/errors.js';
import { parseInput } from '../../http/validation.js';
import type { Actor } from '../../lib/actor/actor.js';
import { recordActivity } from '../activity/activity.service.js';
import {
  countSecretsOf,
  deleteSecretOf,
  findSecretByName,
  findSecretOf,
  insertSecret,
  listSecretRowsOf,
  listSecretsOf,
  type SecretListing,
  setSecretValue,
} from './secrets.store.js';
import type { Vault } from './secrets-vault.js';

// Secrets of an account: functions read them as environment variables.
// Lists never carry a value; revealing one is the only way a value leaves, and it is recorded in activity. Values
// never reach a log or an error: messages name the secret, never its value. Every change publishes
// `secrets.changed`, so the account's function processes restart with the new environment on their next call.

const secretNotFound = () => notFound('Secret not found', 'secret_not_found');

function toSecret(row: SecretListing): Secret {
  return { id: Number(row.id), name: row.name, isEncrypted: row.is_encrypted === 1, createdAt: row.created_at };
}

/** listSecrets lists the actor's secrets by name, without values. */
export async function listSecrets(db: Db, actor: Actor): Promise<Secret[]> {
  return (await listSecretsOf(db.kysely, actor.accountId)).map(toSecret);
}

/** createSecret stores a secret named by createSecretSchema, sealed unless isEncrypted is false. */
export async function createSecret(db: Db, actor: Actor, input: unknown, vault: Vault): Promise<Secret> {
  const { name, value, isEncrypted } = parseInput(createSecretSchema, input);
  const taken = () => conflict(`A secret named ${name} already exists`, 'secret_exists');
  const now = new Date();
  try {
    return await db.transaction(async (scope) => {
      const accountId = actor.accountId;
      if (await findSecretByName(scope.kysely, accountId, name)) throw taken();
      if ((await countSecretsOf(scope.kysely, accountId)) >= SECRET_LIMITS.perAccount) {
        throw conflict(`An account can keep at most ${SECRET_LIMITS.perAccount} secrets`, 'too_many_secrets');
      }
      const row = await insertSecret(scope.kysely, { accountId, name, isEncrypted, now: now.toISOString() });
      const id = Number(row.id);
      const stored = isEncrypted ? await vault.seal(scope, accountId, { id, name }, value) : value;
      await setSecretValue(scope.kysely, id, stored);
      await recordActivity(scope.kysely, { accountId, action: 'CREATE', resource: 'secrets', details: { name } }, now);
      scope.publish('secrets.changed', { accountId });
      return toSecret(row);
    });
  } catch (error) {
    // Two requests for the same name at once: the unique index refuses the second.
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
}

/** deleteSecret deletes one of the actor's secrets. */
export async function deleteSecret(db: Db, actor: Actor, id: number): Promise<void> {
  if (!Number.isSafeInteger(id) || id < 1) throw secretNotFound();
  await db.transaction(async (scope) => {
    const row = await deleteSecretOf(scope.kysely, actor.accountId, id);
    if (!row) throw secretNotFound();
    await recordActivity(scope.kysely, {
      accountId: actor.accountId,
      action: 'DELETE',
      resource: 'secrets',
      details: { name: row.name },
    });
    scope.publish('secrets.changed', { accountId: actor.accountId });
  });
}

/** revealSecret returns one of the actor's secret values and records that it was revealed. */
export async function revealSecret(db: Db, actor: Actor, id: number, vault: Vault): Promise<SecretValue> {
  if (!Number.isSafeInteger(id) || id < 1) throw secretNotFound();
  return db.transaction(async (scope) => {
    const row = await findSecretOf(scope.kysely, actor.accountId, id);
    if (!row) throw secretNotFound();
    const value =
      row.is_encrypted === 1
        ? await vault.open(scope, actor.accountId, { id: Number(row.id), name: row.name }, row.value)
        : row.value;
    await recordActivity(scope.kysely, {
      accountId: actor.accountId,
      action: 'REVEAL',
      resource: 'secrets',
      details: { name: row.name },
    });
    return { value };
  });
}

/** secretEnvironmentOf returns an account's secrets as name → value: the environment of its functions. */
export async function secretEnvironmentOf(db: Db, accountId: string, vault: Vault): Promise<Record<string, string>> {
  const environment: Record<string, string> = {};
  for (const row of await listSecretRowsOf(db.kysely, accountId)) {
    environment[row.name] =
      row.is_encrypted === 1
        ? await vault.open(db, accountId, { id: Number(row.id), name: row.name }, row.value)
        : row.value;
  }
  return environment;
}

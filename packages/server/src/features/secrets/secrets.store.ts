import type { Kysely, Selectable } from 'kysely';
import type { AccountDataKeysTable, SecretsTable, SystemDatabase } from '../../db/schema.js';

// The SQL of secrets and of the accounts' data keys. Values arrive here already sealed (or plain when the user
// chose Plain Text); nothing in this file encrypts, decrypts or logs a value.

type Db = Kysely<SystemDatabase>;

/** SecretRow is one stored secret. */
export type SecretRow = Selectable<SecretsTable>;

/** SecretListing is a secret without its value, as lists carry it. */
export type SecretListing = Omit<SecretRow, 'value'>;

const LISTED = ['id', 'account_id', 'name', 'is_encrypted', 'created_at'] as const;

/** insertSecret stores a secret with a value to be set by setSecretValue (its sealing needs the row's id). */
export function insertSecret(
  db: Db,
  row: { accountId: string; name: string; isEncrypted: boolean; now: string },
): Promise<SecretListing> {
  return db
    .insertInto('secrets')
    .values({
      account_id: row.accountId,
      name: row.name,
      value: '',
      is_encrypted: row.isEncrypted ? 1 : 0,
      created_at: row.now,
    })
    .returning(LISTED)
    .executeTakeFirstOrThrow();
}

/** setSecretValue stores a secret's (sealed or plain) value. */
export async function setSecretValue(db: Db, id: number, value: string): Promise<void> {
  await db.updateTable('secrets').set({ value }).where('id', '=', id).execute();
}

/** listSecretsOf lists an account's secrets without values, by name. */
export function listSecretsOf(db: Db, accountId: string): Promise<SecretListing[]> {
  return db.selectFrom('secrets').select(LISTED).where('account_id', '=', accountId).orderBy('name').execute();
}

/** listSecretRowsOf reads an account's secrets with their stored values (the functions' environment). */
export function listSecretRowsOf(db: Db, accountId: string): Promise<SecretRow[]> {
  return db.selectFrom('secrets').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
}

/** countSecretsOf counts an account's secrets. */
export async function countSecretsOf(db: Db, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('secrets')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** findSecretOf reads one of an account's secrets, or undefined. */
export function findSecretOf(db: Db, accountId: string, id: number): Promise<SecretRow | undefined> {
  return db
    .selectFrom('secrets')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

/** findSecretByName reads an account's secret of that name, or undefined. */
export function findSecretByName(db: Db, accountId: string, name: string): Promise<SecretListing | undefined> {
  return db
    .selectFrom('secrets')
    .select(LISTED)
    .where('account_id', '=', accountId)
    .where('name', '=', name)
    .executeTakeFirst();
}

/** deleteSecretOf deletes one of an account's secrets and returns it as it was (without its value), or undefined. */
export function deleteSecretOf(db: Db, accountId: string, id: number): Promise<SecretListing | undefined> {
  return db
    .deleteFrom('secrets')
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .returning(LISTED)
    .executeTakeFirst();
}

/** DataKeyRow is an account's wrapped data key. */
export type DataKeyRow = Selectable<AccountDataKeysTable>;

/** findDataKey reads an account's wrapped data key, or undefined when it has none yet. */
export function findDataKey(db: Db, accountId: string): Promise<DataKeyRow | undefined> {
  return db.selectFrom('account_data_keys').selectAll().where('account_id', '=', accountId).executeTakeFirst();
}

/** insertDataKey stores an account's first data key; when another process stored one first, nothing changes. */
export async function insertDataKey(db: Db, row: DataKeyRow): Promise<void> {
  await db
    .insertInto('account_data_keys')
    .values(row)
    .onConflict((oc) => oc.column('account_id').doNothing())
    .execute();
}

/** listDataKeysNotWrappedBy lists the data keys a master key other than `masterKeyId` wrapped (a rotation's work). */
export function listDataKeysNotWrappedBy(db: Db, masterKeyId: string): Promise<DataKeyRow[]> {
  return db.selectFrom('account_data_keys').selectAll().where('master_key_id', '!=', masterKeyId).execute();
}

/** rewrapDataKey replaces a data key's wrapping, only if it is still the one read (two nodes may rotate at once). */
export async function rewrapDataKey(db: Db, before: DataKeyRow, wrapped: string, masterKeyId: string): Promise<void> {
  await db
    .updateTable('account_data_keys')
    .set({ wrapped_key: wrapped, master_key_id: masterKeyId })
    .where('account_id', '=', before.account_id)
    .where('master_key_id', '=', before.master_key_id)
    .execute();
}

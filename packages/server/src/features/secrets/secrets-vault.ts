import type { Db } from '../../db/database.js';
import { generateKey, open as openSealed, seal as sealValue } from '../../lib/crypto/envelope.js';
import type { Keyring } from '../../lib/crypto/master-key.js';
import { findDataKey, insertDataKey, listDataKeysNotWrappedBy, rewrapDataKey } from './secrets.store.js';

// The vault seals and opens secret values. Each account has its own random data key, made on its first encrypted
// secret and stored wrapped by the master key (lib/crypto/master-key.ts); its unwrapped form is kept in this
// process's memory only. A value is sealed bound to its row: the secret's id and name are the associated data,
// so a ciphertext copied to another row or renamed does not open.

/** Vault seals and opens the secret values of any account. */
export interface Vault {
  keyring: Keyring;
  seal(db: Db, accountId: string, secret: { id: number; name: string }, value: string): Promise<string>;
  open(db: Db, accountId: string, secret: { id: number; name: string }, sealed: string): Promise<string>;
}

const associatedData = (secret: { id: number; name: string }) => `basalt secret\u0000${secret.id}\u0000${secret.name}`;

/** createVault makes a vault over a keyring. */
export function createVault(keyring: Keyring): Vault {
  const dataKeys = new Map<string, Buffer>();

  async function dataKeyOf(db: Db, accountId: string): Promise<Buffer> {
    const known = dataKeys.get(accountId);
    if (known) return known;
    let row = await findDataKey(db.kysely, accountId);
    if (!row) {
      const { wrapped, masterKeyId } = keyring.wrap(generateKey(), accountId);
      await insertDataKey(db.kysely, {
        account_id: accountId,
        wrapped_key: wrapped,
        master_key_id: masterKeyId,
        created_at: new Date().toISOString(),
      });
      // Another process may have stored its key first: whichever is stored is the account's key.
      row = await findDataKey(db.kysely, accountId);
      if (!row) throw new Error(`The data key of account ${accountId} could not be stored`);
    }
    const key = keyring.unwrap(row.wrapped_key, row.master_key_id, accountId);
    dataKeys.set(accountId, key);
    return key;
  }

  return {
    keyring,
    async seal(db, accountId, secret, value) {
      return sealValue(await dataKeyOf(db, accountId), value, associatedData(secret));
    },
    async open(db, accountId, secret, sealed) {
      return openSealed(await dataKeyOf(db, accountId), sealed, associatedData(secret)).toString('utf8');
    },
  };
}

/** rewrapDataKeys re-wraps, under the current master key, every data key the previous one wrapped; returns how many. */
export async function rewrapDataKeys(db: Db, keyring: Keyring): Promise<number> {
  const stale = await listDataKeysNotWrappedBy(db.kysely, keyring.current.id);
  for (const row of stale) {
    const dataKey = keyring.unwrap(row.wrapped_key, row.master_key_id, row.account_id);
    const { wrapped, masterKeyId } = keyring.wrap(dataKey, row.account_id);
    await rewrapDataKey(db.kysely, row, wrapped, masterKeyId);
  }
  return stale.length;
}

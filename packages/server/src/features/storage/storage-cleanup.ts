import { sql } from 'kysely';
import type { Storage } from './storage-context.js';

// What storage removes in the background (app-jobs.ts): the bytes of a deleted account (its rows went with the
// account; every node hears `account.deleted` and removing twice is harmless), and unfinished resumable uploads
// that expired or whose account is gone. Uploads are named in the database (`storage_resumable_uploads`), so any
// node expires any upload, whichever node started it.

const BATCH = 200;

/** removeResumable removes an upload's partial bytes and its row; one already gone is not an error. */
export async function removeResumable(storage: Storage, id: string): Promise<void> {
  await storage.resumable.remove(id).catch(async () => {
    // Its bytes could not be removed (the store is down): the row goes anyway only once the account is gone.
    await storage.db.kysely
      .deleteFrom('storage_resumable_uploads')
      .where('id', '=', id)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('accounts').select('id').whereRef('accounts.id', '=', 'storage_resumable_uploads.account_id'),
          ),
        ),
      )
      .execute();
  });
}

/** expireResumableUploads removes uploads past their expiry or whose account is gone; returns how many. */
export async function expireResumableUploads(storage: Storage, now = new Date()): Promise<number> {
  let removed = 0;
  for (;;) {
    const rows = await storage.db.kysely
      .selectFrom('storage_resumable_uploads')
      .select('id')
      .where((eb) =>
        eb.or([
          eb('expires_at', '<', now.toISOString()),
          eb.not(eb.exists(sql`(SELECT 1 FROM accounts WHERE accounts.id = storage_resumable_uploads.account_id)`)),
        ]),
      )
      .limit(BATCH)
      .execute();
    for (const row of rows) await removeResumable(storage, row.id);
    removed += rows.length;
    if (rows.length < BATCH) return removed;
  }
}

/** removeAccountFiles removes a deleted account's stored bytes and unfinished uploads. */
export async function removeAccountFiles(storage: Storage, accountId: string): Promise<void> {
  await storage.blobs.deleteAccount(accountId);
  await expireResumableUploads(storage);
}

/** forgetDeletedAccounts removes each deleted account's files as the bus tells; returns the unsubscribe. */
export function forgetDeletedAccounts(storage: Storage, onError: (error: unknown) => void): () => void {
  return storage.db.bus.subscribe('account.deleted', ({ accountId }) => {
    removeAccountFiles(storage, accountId).catch(onError);
  });
}

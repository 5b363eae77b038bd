import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

// SQLite's integrity checks read the whole file. On the server's connection they would stop the event loop for
// as long (about a second per few hundred MB), so they run on a worker thread with a read-only connection of
// its own: in WAL mode it reads a consistent snapshot while the server goes on reading and writing.

/** INTEGRITY_TIMEOUT_MS bounds one run; a larger database reports that its check did not finish. */
const INTEGRITY_TIMEOUT_MS = 120_000;

/** IntegrityRows are the raw answers of the two PRAGMAs (at most `max` rows each). */
export interface IntegrityRows {
  quickCheck: string[];
  foreignKeys: Array<{ table: string; rowid: number | null; parent: string }>;
}

// Evaluated source, like the checkpoint worker (sqlite-checkpoints.ts): it loads better-sqlite3 by the URL the
// server resolved, so it runs from the bundle and from the sources alike.
const WORKER_SOURCE = `(async () => {
  const { parentPort, workerData } = await import('node:worker_threads');
  const { default: Database } = await import(workerData.driverUrl);
  let db;
  try {
    db = new Database(workerData.file, { readonly: true, fileMustExist: true });
    const quickCheck = db.pragma('quick_check(' + workerData.max + ')').map((row) => String(row.quick_check));
    const foreignKeys = db.pragma('foreign_key_check').slice(0, workerData.max)
      .map((row) => ({ table: row.table, rowid: row.rowid, parent: row.parent }));
    parentPort.postMessage({ quickCheck, foreignKeys });
  } catch (error) {
    parentPort.postMessage({ error: String((error && error.message) || error) });
  } finally {
    if (db) db.close();
  }
})();`;

/** runIntegrityPragmas runs quick_check and foreign_key_check on the database file, on a worker thread. */
export function runIntegrityPragmas(file: string, max: number): Promise<IntegrityRows> {
  const driverUrl = pathToFileURL(createRequire(import.meta.url).resolve('better-sqlite3')).href;
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driverUrl, file, max } });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new Error(`the integrity check did not finish within ${INTEGRITY_TIMEOUT_MS / 1000} s`));
    }, INTEGRITY_TIMEOUT_MS);
    worker.once('message', (message: IntegrityRows | { error: string }) => {
      clearTimeout(timer);
      if ('error' in message) reject(new Error(message.error));
      else resolve(message);
    });
    worker.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    worker.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the integrity check stopped (exit code ${code})`));
    });
  });
}

import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import type { CompiledQuery } from 'kysely';

// WAL checkpoints off the event loop.
//
// In WAL mode a commit appends pages to the -wal file; a checkpoint copies them back into the database and, with
// synchronous=NORMAL, is the moment SQLite calls fsync. By default the connection that commits runs a
// checkpoint itself whenever the WAL passes 1,000 pages: better-sqlite3 is synchronous, so the event loop stops
// for the copy and both fsyncs. A record write touches about seven pages (the row, history and activity rows,
// their indexes, the AUTOINCREMENT counters), so that happened every ~140 writes, cost about half of a
// write's time and produced multi-millisecond stalls that every request in flight waited for (the
// benchmark's create p99).
//
// Instead, one worker thread per process, with its own connection to each open database, runs a PASSIVE
// checkpoint every CHECKPOINT_EVERY_MS. PASSIVE never blocks readers or writers: it copies what no reader
// still needs and the rest waits for the next round. Durability is unchanged (the same WAL, the same fsyncs,
// on another thread). If the worker cannot start or dies, the connections it served go back to the default.
//
// The server's connection keeps a backstop: it checkpoints itself once the WAL reaches BACKSTOP_PAGES. A WAL
// is only reused from its start when a write begins after a checkpoint copied every frame, which a checkpoint
// on another thread never achieves while writes keep coming (new frames land while it copies): without the
// backstop the WAL grew by hundreds of MB under a sustained write load. With it, the server's own checkpoint
// finds all but the last ~100 ms of frames already copied, so it is short, and it comes every 64 MB of
// writes instead of every 4 MB. Closing the database still checkpoints on the server's connection.
//
// The same worker runs the reads that scan a whole table or more (readInBackground: measuring an account's
// storage walks every page of its tables, 90 ms for a table of a million rows): on the server's connection the
// event loop would stop for them, and every request in flight would wait.

/** CHECKPOINT_EVERY_MS is how often the worker copies the WAL back into the database. */
const CHECKPOINT_EVERY_MS = 100;
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;
/** BACKSTOP_PAGES is the WAL size (pages of 4 KiB: 64 MiB) at which the server's connection checkpoints itself. */
const BACKSTOP_PAGES = 16_384;

// The worker is evaluated source (the server ships as one bundled file), written to run as a script or a
// module alike: it loads better-sqlite3 by the absolute URL the server resolved.
const WORKER_SOURCE = `(async () => {
  const { parentPort, workerData } = await import('node:worker_threads');
  const { default: Database } = await import(workerData.driverUrl);
  const files = new Map();
  parentPort.on('message', ({ open, close, read }) => {
    if (open && !files.has(open)) {
      try { files.set(open, new Database(open, { fileMustExist: true })); } catch { parentPort.postMessage({ failed: open }); }
    }
    if (close) { files.get(close)?.close(); files.delete(close); }
    if (read) {
      try {
        const db = files.get(read.file);
        if (!db) throw new Error('the database is not open in the background worker');
        parentPort.postMessage({ read: read.id, rows: db.prepare(read.sql).all(read.parameters) });
      } catch (error) {
        parentPort.postMessage({ read: read.id, error: String(error?.message ?? error) });
      }
    }
  });
  setInterval(() => {
    for (const [name, db] of files) {
      try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { db.close(); files.delete(name); parentPort.postMessage({ failed: name }); }
    }
  }, workerData.everyMs);
})();`;

let worker: Worker | null = null;
let workerBroken = false;
const served = new Map<string, Database.Database>();
const reading = new Map<number, { resolve: (rows: unknown[]) => void; reject: (error: Error) => void }>();
let lastRead = 0;

function fallBack(file: string): void {
  const connection = served.get(file);
  served.delete(file);
  if (connection?.open) connection.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
}

function checkpointWorker(): Worker | null {
  if (worker || workerBroken) return worker;
  try {
    const driverUrl = pathToFileURL(createRequire(import.meta.url).resolve('better-sqlite3')).href;
    worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driverUrl, everyMs: CHECKPOINT_EVERY_MS } });
  } catch {
    workerBroken = true;
    return null;
  }
  worker.on('message', (message: { failed?: string; read?: number; rows?: unknown[]; error?: string }) => {
    if (message.failed) fallBack(message.failed);
    if (message.read !== undefined) {
      const waiting = reading.get(message.read);
      reading.delete(message.read);
      if (message.error !== undefined) waiting?.reject(new Error(message.error));
      else waiting?.resolve(message.rows ?? []);
    }
  });
  const broken = () => {
    workerBroken = true;
    worker = null;
    for (const file of [...served.keys()]) fallBack(file);
    for (const waiting of reading.values()) waiting.reject(new Error('the background worker stopped'));
    reading.clear();
  };
  worker.on('error', broken);
  worker.on('exit', broken);
  // The worker never keeps the process alive; unref last, since adding a 'message' listener refs it again.
  worker.unref();
  return worker;
}

/**
 * checkpointInBackground hands a WAL-mode connection's checkpoints to the worker thread; it returns the
 * function to call before closing the connection. Without a worker, the connection keeps checkpointing itself.
 */
export function checkpointInBackground(connection: Database.Database): () => void {
  const file = connection.name;
  const thread = checkpointWorker();
  if (!thread || served.has(file)) return () => {};
  connection.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  served.set(file, connection);
  thread.postMessage({ open: file });
  return () => {
    if (served.get(file) !== connection) return;
    served.delete(file);
    worker?.postMessage({ close: file });
  };
}

/**
 * readInBackground runs a read-only statement on the worker's own connection to the file a served connection
 * has open, or returns null when there is no worker for it (the caller then reads on its own connection).
 */
export function readInBackground<R>(connection: Database.Database, query: CompiledQuery<R>): Promise<R[]> | null {
  const file = connection.name;
  if (!worker || served.get(file) !== connection) return null;
  const id = ++lastRead;
  const thread = worker;
  return new Promise<R[]>((resolve, reject) => {
    reading.set(id, { resolve: resolve as (rows: unknown[]) => void, reject });
    thread.postMessage({ read: { id, file, sql: query.sql, parameters: query.parameters } });
  });
}

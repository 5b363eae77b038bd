import type Database from 'better-sqlite3';
import type { ControlledTransaction, Kysely, Transaction } from 'kysely';
import { GroupCounts } from '../group-counts.js';
import type { SystemDatabase } from '../schema.js';
import type { RunRows, WriteTransaction } from './dialect.js';

// Group commit for SQLite's record writes.
//
// SQLite has one connection and one writer, so record writes run one after another anyway; what each one
// paid on its own was the COMMIT: every page it touched (the row, its history and activity rows, their
// indexes, the AUTOINCREMENT counters: about seven) appended to the WAL with its own write calls, some
// 40–60 µs, more than the statements themselves. Writes that arrive together are therefore run in one
// transaction and committed once:
//
// - a write asks for a transaction; the first one schedules a flush (setImmediate), so everything that
//   arrives in the same turn of the event loop joins the same group, and so does what arrives while the group
//   runs, for up to JOIN_WINDOW_MS; a lone write waits for nothing;
// - each write of a group runs inside its own SAVEPOINT: when it throws, ROLLBACK TO undoes exactly its
//   statements and only its caller gets the error; the others go on;
// - the writes' additions to the kept counts are summed and written once per count row, just before the COMMIT
//   (db/group-counts.ts);
// - a write's promise resolves only after the group's COMMIT, so no caller is answered (and no change event
//   fires) before its write is durable; if the COMMIT fails, every write of the group fails;
// - if SQLite abandoned the whole transaction (I/O error, disk full), ROLLBACK TO fails: the group's finished
//   writes fail with it and the ones not yet run stay queued for a new group.
// A group's first write runs without a savepoint when nothing else waits (if it fails, the group ends with
// it, as a plain transaction would). The savepoint statements go straight to the connection, which the
// group's transaction holds (Kysely's lock) until it commits.

// A group stays open for writes that arrive while it runs, for at most this long and this many writes, so
// that a write never waits for more than about one window before its commit.
const JOIN_WINDOW_MS = 1;
const MAX_GROUP = 64;

interface Pending {
  fn: (trx: Transaction<SystemDatabase>, counts: GroupCounts) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * groupCommit makes the write-transaction runner of one SQLite database, whose connection is `file`; `runOf`
 * runs statements in an open transaction (the group's kept counts before its COMMIT).
 */
export function groupCommit(
  kysely: Kysely<SystemDatabase>,
  file: Database.Database,
  runOf: (trx: Transaction<SystemDatabase>) => RunRows,
): WriteTransaction {
  const savepoint = file.prepare('SAVEPOINT basalt_write');
  const release = file.prepare('RELEASE basalt_write');
  const rollbackTo = file.prepare('ROLLBACK TO basalt_write');

  let queue: Pending[] = [];
  let flushing = false;

  // Runs one group: the writes queued when it starts, and those that arrive while it runs, until
  // JOIN_WINDOW_MS have passed or MAX_GROUP writes have run; then one COMMIT.
  async function runGroup(): Promise<void> {
    let trx: ControlledTransaction<SystemDatabase>;
    try {
      trx = await kysely.startTransaction().execute();
    } catch (error) {
      const failed = queue;
      queue = [];
      for (const p of failed) p.reject(error);
      return;
    }
    const startedAt = performance.now();
    const counts = new GroupCounts();
    const done: Array<[Pending, unknown]> = [];
    let ran = 0;
    while (queue.length > 0 && ran < MAX_GROUP && (ran === 0 || performance.now() - startedAt < JOIN_WINDOW_MS)) {
      const p = queue.shift() as Pending;
      ran++;
      if (ran === 1 && queue.length === 0) {
        // Alone so far: no savepoint; if it fails, the transaction ends with it.
        try {
          done.push([p, await p.fn(trx, counts)]);
          continue;
        } catch (error) {
          await trx
            .rollback()
            .execute()
            .catch(() => {});
          p.reject(error);
          return;
        }
      }
      try {
        savepoint.run();
        const value = await p.fn(trx, counts);
        release.run();
        done.push([p, value]);
      } catch (error) {
        try {
          rollbackTo.run();
          release.run();
        } catch (fatal) {
          // The transaction is gone: what ran is lost; what did not run waits in the queue for the next group.
          p.reject(error);
          for (const [finished] of done) finished.reject(fatal);
          await trx
            .rollback()
            .execute()
            .catch(() => {});
          return;
        }
        p.reject(error);
      }
    }
    try {
      await counts.write(runOf(trx));
      await trx.commit().execute();
    } catch (error) {
      await trx
        .rollback()
        .execute()
        .catch(() => {});
      for (const [p] of done) p.reject(error);
      return;
    }
    for (const [p, value] of done) p.resolve(value);
  }

  async function flush(): Promise<void> {
    while (queue.length > 0) {
      try {
        await runGroup();
      } catch (error) {
        // Not expected (runGroup settles every write it took); never leave a caller waiting.
        const failed = queue;
        queue = [];
        for (const p of failed) p.reject(error);
      }
    }
    flushing = false;
  }

  return <T>(fn: (trx: Transaction<SystemDatabase>, counts: GroupCounts) => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      queue.push({ fn, resolve: resolve as (value: unknown) => void, reject });
      if (!flushing) {
        flushing = true;
        setImmediate(() => void flush());
      }
    });
}

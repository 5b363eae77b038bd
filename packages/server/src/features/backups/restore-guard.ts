import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database.js';
import { ApiError } from '../../http/errors.js';
import { activeRestore } from './backup-lease.js';

// While a restore runs, every node refuses writes with 503 and Retry-After: a write accepted then would be lost
// when the restored database is swapped in. The node that restores announces it on the bus (`backups.restoring`)
// and holds the lease row with operation `restore`; each node also reads the lease every few seconds
// (startRestoreWatch, in the backups job), so that a node that missed the announcement or started meanwhile
// refuses too, and one whose restorer died (the lease lapsed) accepts writes again.
//
// Once swapped in, the restorer publishes `instance.restored`: every node drops what its caches hold
// (the bus's reset listeners: tables, keys, apps, sessions, functions…).

declare module '../../db/bus/event-bus.js' {
  interface BusEvents {
    /** A restore started (active) or ended on some node. */
    'backups.restoring': { active: boolean };
    /** The database was replaced by a restore: every cache of every node must forget what it holds. */
    'instance.restored': { backupId: string };
  }
}

/** RETRY_AFTER_SECONDS is what a refused write is told to wait. */
export const RETRY_AFTER_SECONDS = 10;
const WATCH_EVERY_MS = 3000;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** RestoreGuard is this process's knowledge of a restore under way. */
export interface RestoreGuard {
  readonly active: boolean;
  /** announce tells every node that a restore starts or ended. */
  announce(active: boolean): void;
}

const GUARD = Symbol('restore-guard');

/** restoreGuardOf is the guard of a database, made once per process. */
export function restoreGuardOf(db: Db): RestoreGuard & { set(active: boolean): void } {
  return db.state(GUARD, () => {
    let active = false;
    db.bus.subscribe('backups.restoring', (event) => {
      active = event.active;
    });
    db.bus.subscribe('instance.restored', () => db.bus.resetLocal());
    return {
      get active() {
        return active;
      },
      set(value: boolean) {
        active = value;
      },
      announce(value: boolean) {
        active = value;
        db.publish('backups.restoring', { active: value });
      },
    };
  });
}

/** restoreInProgress is the 503 a write gets while a restore runs. */
export function restoreInProgress(): ApiError {
  return new ApiError(
    503,
    'restore_in_progress',
    'A restore of this instance is under way: changes are refused until it ends. Try again shortly.',
    { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } },
  );
}

/** installRestoreGuard refuses every write (any method but GET, HEAD and OPTIONS) while a restore runs. */
export function installRestoreGuard(app: FastifyInstance, db: Db): void {
  const guard = restoreGuardOf(db);
  app.addHook('onRequest', async (request) => {
    if (guard.active && !SAFE_METHODS.has(request.method)) throw restoreInProgress();
  });
}

/** startRestoreWatch reads the lease every few seconds into the guard; it returns the function that stops it. */
export function startRestoreWatch(db: Db): () => Promise<void> {
  const guard = restoreGuardOf(db);
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = activeRestore({ db })
      .then((active) => guard.set(active))
      .catch(() => {});
  }, WATCH_EVERY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

import type { BackupDeps } from './backup-deps.js';
import { readLease, releaseLease, renewLease, takeLease } from './backups.store.js';

// One backup or restore at a time on the whole instance: the node that runs one holds the lease row, renewed
// while it works. A node that dies (kill -9) stops renewing, and the lease lapses after LEASE_TTL_MS; whatever it
// left IN_PROGRESS is then marked FAILED by the next node that looks (backup-recovery.ts).

/** LEASE_TTL_MS is how long a lease lasts without renewal. */
export const LEASE_TTL_MS = 60_000;
const RENEW_EVERY_MS = 10_000;

/** HeldLease is a lease this process holds: renewed until released. */
export interface HeldLease {
  release(): Promise<void>;
}

/** acquireLease takes the instance's lease for an operation, or returns null when another one holds it. */
export async function acquireLease(
  deps: BackupDeps,
  operation: 'backup' | 'restore',
  backupId: string | null,
): Promise<HeldLease | null> {
  const expiry = () => new Date(Date.now() + LEASE_TTL_MS).toISOString();
  const taken = await takeLease(
    deps.db.kysely,
    { holder: deps.holder, operation, backupId, expiresAt: expiry() },
    new Date().toISOString(),
  );
  if (!taken) return null;
  const timer = setInterval(() => {
    renewLease(deps.db.kysely, deps.holder, expiry()).catch(() => {});
  }, RENEW_EVERY_MS);
  timer.unref();
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      await releaseLease(deps.db.kysely, deps.holder);
    },
  };
}

/** activeRestore tells whether some node holds an unexpired lease for a restore (every node refuses writes then). */
export async function activeRestore(deps: Pick<BackupDeps, 'db'>): Promise<boolean> {
  const lease = await readLease(deps.db.kysely);
  return lease !== null && lease.operation === 'restore' && lease.expiresAt > new Date().toISOString();
}

/** leaseHolderAlive tells whether the lease (if any) is unexpired. */
export async function leaseUnexpired(deps: Pick<BackupDeps, 'db'>): Promise<boolean> {
  const lease = await readLease(deps.db.kysely);
  return lease !== null && lease.expiresAt > new Date().toISOString();
}

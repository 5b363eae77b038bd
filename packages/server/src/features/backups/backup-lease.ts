import os from 'node:os';
import type { BackupDeps } from './backup-deps.js';
import { type Lease, readLease, releaseLease, renewLease, takeLease } from './backups.store.js';

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
  await liveLease(deps);
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

/**
 * holderAlive tells whether a lease's holder may still be at work: a process of this host that no longer exists
 * (killed, restarted) is not, so a server restarted after a crash need not wait for its old lease to lapse.
 */
export function holderAlive(holder: string): boolean {
  const [host, pid] = holder.split(':');
  if (host !== os.hostname() || !pid || Number(pid) === process.pid) return true;
  try {
    process.kill(Number(pid), 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code !== 'ESRCH';
  }
}

function live(lease: Lease | null): boolean {
  return lease !== null && lease.expiresAt > new Date().toISOString() && holderAlive(lease.holder);
}

/** activeRestore tells whether some node holds a live lease for a restore (every node refuses writes then). */
export async function activeRestore(deps: Pick<BackupDeps, 'db'>): Promise<boolean> {
  const lease = await readLease(deps.db.kysely);
  return live(lease) && lease?.operation === 'restore';
}

/** liveLease reads the lease when a live holder has it, else null (a dead holder's lease is given up). */
export async function liveLease(deps: Pick<BackupDeps, 'db'>): Promise<Lease | null> {
  const lease = await readLease(deps.db.kysely);
  if (live(lease)) return lease;
  if (lease) await releaseLease(deps.db.kysely, lease.holder);
  return null;
}

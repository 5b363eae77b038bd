import { setTimeout as sleep } from 'node:timers/promises';

// Pacing a background job (docs/backups.md, BACKUP_PACE): the job works in slices and rests between them, so that
// it works only a share of the wall-clock time. A backup's reading costs the database server CPU time and the disk
// writes (a PostgreSQL commit waits for its WAL to reach the disk, behind whatever else is being written) that
// lowering the backup's own CPU priority cannot give back; working a quarter of the time costs the server's writes
// about a quarter as much, and the backup takes about four times as long. A share, not a rate: it costs the same
// part of any machine, fast or slow.

// How long a slice of work lasts before the job rests: short enough that the writes meanwhile barely notice it,
// long enough that the pipes and the database's socket buffers fill between rests.
/** SLICE_MS is how long a paced job works before it rests. */
export const SLICE_MS = 200;

/** restAfter is how long a job that worked `workedMs` must rest so that it works `share` (0–1] of the time. */
export function restAfter(workedMs: number, share: number): number {
  if (!(share > 0) || share >= 1 || workedMs <= 0) return 0;
  return (workedMs * (1 - share)) / share;
}

/** PaceStats is how long a paced job worked and rested. */
export interface PaceStats {
  workedMs: number;
  restedMs: number;
}

/** Pacer keeps a job's work at `share` of the time: the job calls `step()` between units of work. */
export class Pacer {
  private sliceStart = performance.now();
  readonly stats: PaceStats = { workedMs: 0, restedMs: 0 };

  constructor(
    readonly share: number,
    private readonly sliceMs = SLICE_MS,
  ) {}

  /** restDue is how long to rest now: nothing until a slice of work is done, then its share of rest. */
  restDue(now = performance.now()): number {
    const worked = now - this.sliceStart;
    return worked < this.sliceMs ? 0 : restAfter(worked, this.share);
  }

  /** step rests when a slice of work is done (the caller's reading stops meanwhile), and starts the next slice. */
  async step(): Promise<void> {
    const now = performance.now();
    const rest = this.restDue(now);
    if (rest === 0) return;
    this.stats.workedMs += now - this.sliceStart;
    await sleep(rest);
    const after = performance.now();
    this.stats.restedMs += after - now;
    this.sliceStart = after;
  }
}

/** unpaced is a pacer that never rests (BACKUP_PACE=1, and work nobody waits behind). */
export function unpaced(): Pacer {
  return new Pacer(1);
}

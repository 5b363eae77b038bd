/** hasPgBouncer tells whether PgBouncer is installed (.ci/run installs it). */
export function hasPgBouncer(): boolean;

/** PgBouncer is a running pooler: `urlOf(directUrl)` is the same database reached through it. */
export interface PgBouncer {
  urlOf(directUrl: string): string;
  stop(): Promise<void>;
}

/** startPgBouncer starts PgBouncer in transaction mode for the PostgreSQL server of `directUrl`. */
export function startPgBouncer(directUrl: string, options?: { poolSize?: number }): Promise<PgBouncer>;

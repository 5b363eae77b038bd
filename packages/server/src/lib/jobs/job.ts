// Background work of one server, all of it listed in one place (app-jobs.ts) and started and stopped there: a
// route never starts a timer. A job is its name and a start that returns how to stop it; most jobs run on a fixed
// rhythm (`every`), others keep their own (a writer that flushes, a pool that watches its processes).

/** Stop ends a job, waiting for work in progress. */
export type Stop = () => void | Promise<void>;

/** Job is one piece of background work. */
export interface Job {
  name: string;
  start(): Stop;
}

/** Rhythm says when an `every` job runs: first after `firstAfterMs`, then every `everyMs`. */
export interface Rhythm {
  firstAfterMs: number;
  everyMs: number;
}

/**
 * every makes a job that runs `run` on a rhythm; runs never overlap (a run due while one is in progress is
 * skipped), and a failing run is reported to `onError` and tried again next time.
 */
export function every(
  name: string,
  rhythm: Rhythm,
  run: () => Promise<unknown>,
  onError: (error: unknown) => void,
): Job {
  return {
    name,
    start() {
      let running: Promise<unknown> | null = null;
      const tick = () => {
        running ??= run()
          .catch(onError)
          .finally(() => {
            running = null;
          });
      };
      const first = setTimeout(tick, rhythm.firstAfterMs);
      const timer = setInterval(tick, rhythm.everyMs);
      first.unref();
      timer.unref();
      return async () => {
        clearTimeout(first);
        clearInterval(timer);
        await running;
      };
    },
  };
}

/** startJobs starts every job and returns the function that stops them all, the last started first. */
export function startJobs(jobs: readonly Job[]): () => Promise<void> {
  const stops = jobs.map((job) => job.start());
  return async () => {
    for (const stop of stops.reverse()) await stop();
  };
}

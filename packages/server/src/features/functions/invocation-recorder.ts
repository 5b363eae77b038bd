import type { FunctionLogLine } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import type { LogWriter } from '../logs/log-writer.js';
import {
  addUsage,
  deleteInvocationsBefore,
  insertInvocations,
  type NewInvocationRow,
  type UsageIncrement,
} from './invocations.store.js';
import type { InvokeCost } from './runtime/function-process.js';

// Every invocation is recorded off the request's path: once its cost is known (CPU time is sampled, so shortly
// after it ended) it is counted in the hourly counters per function that billing reads (invocations, errors, CPU
// and wall-clock milliseconds), and logged: an entry in the system log under the service `functions` (through
// the log writer) and a row of the per-function invocation log. Both are stored in batches every FLUSH_EVERY_MS.
//
// Like successful API requests (LOG_REQUESTS, features/logs/request-summaries.ts), successful invocations are
// logged one by one up to LOGGED_PER_WINDOW per function in each SUMMARY_WINDOW_MS; the others of that window are
// counted (never dropped from the counters) and logged as one summary entry when it closes. A function serving
// thousands of calls a second would otherwise write two rows per call. Failed invocations (status 400 and up, or a
// relay error) are always logged one by one; LOG_REQUESTS=all logs every invocation. The queue is bounded;
// beyond it the oldest rows are dropped from the invocation log, never from the counters. Invocations older than
// RETENTION_DAYS are deleted in the background.

const FLUSH_EVERY_MS = 1000;
const SUMMARY_WINDOW_MS = 10_000;
const LOGGED_PER_WINDOW = 20;
const BATCH = 200;
const MAX_QUEUE = 20_000;
const RETENTION_DAYS = 7;
const RETENTION_EVERY_MS = 10 * 60_000;
// What one invocation keeps of the function's output.
const KEPT_LOG_LINES = 100;
const KEPT_LOG_CHARS = 32 * 1024;

/** InvocationFacts are what is known of an invocation when it ends. */
export interface InvocationFacts {
  accountId: string;
  functionId: number;
  name: string;
  version: number;
  route: string;
  method: string;
  status: number;
  durationMs: number;
  /** The relay or function error code, or null. */
  error: string | null;
  logs: FunctionLogLine[];
  cost: Promise<InvokeCost>;
}

/** InvocationRecorder stores invocations in batches. */
export interface InvocationRecorder {
  record(facts: InvocationFacts): void;
  flush(): Promise<void>;
  close(): Promise<void>;
}

function keptLogs(logs: FunctionLogLine[]): FunctionLogLine[] {
  const kept: FunctionLogLine[] = [];
  let chars = 0;
  for (const line of logs.slice(0, KEPT_LOG_LINES)) {
    if (chars + line.message.length > KEPT_LOG_CHARS) break;
    chars += line.message.length;
    kept.push(line);
  }
  return kept;
}

const hourOf = (iso: string) => `${iso.slice(0, 13)}:00:00.000Z`;

/** createInvocationRecorder starts a recorder; close it before the database. */
export function createInvocationRecorder(
  db: Db,
  logs: LogWriter,
  options: { everyInvocation?: boolean; onError?: (error: unknown) => void } = {},
): InvocationRecorder {
  // Per function: successful invocations logged in the current window, and those only counted.
  const windows = new Map<number, { logged: number; skipped: number; facts: InvocationFacts; durationMs: number }>();
  const queue: NewInvocationRow[] = [];
  let usage = new Map<string, UsageIncrement>();
  let pending = 0;
  let chain: Promise<void> = Promise.resolve();
  let closed = false;
  let settled: () => void = () => {};

  function store(): Promise<void> {
    chain = chain
      .then(async () => {
        while (queue.length > 0 || usage.size > 0) {
          const rows = queue.splice(0, BATCH);
          const increments = queue.length === 0 ? [...usage.values()] : [];
          if (queue.length === 0) usage = new Map();
          await db.transaction(async (scope) => {
            await insertInvocations(scope.kysely, rows);
            await addUsage(scope.kysely, increments);
          });
        }
      })
      .catch((error: unknown) => options.onError?.(error));
    return chain;
  }

  function count(facts: InvocationFacts, cost: InvokeCost, createdAt: string, failed: boolean): void {
    const hour = hourOf(createdAt);
    const key = `${facts.functionId}\u0000${hour}`;
    const counter = usage.get(key) ?? {
      functionId: facts.functionId,
      accountId: facts.accountId,
      hour,
      invocations: 0,
      errors: 0,
      cpuMs: 0,
      durationMs: 0,
    };
    counter.invocations += 1;
    counter.errors += failed ? 1 : 0;
    counter.cpuMs += cost.cpuMs;
    counter.durationMs += facts.durationMs;
    usage.set(key, counter);
  }

  // Whether this successful invocation is logged one by one, or only counted into its window's summary.
  function logsOneByOne(facts: InvocationFacts): boolean {
    if (options.everyInvocation || facts.error !== null || facts.status >= 400) return true;
    const window = windows.get(facts.functionId) ?? { logged: 0, skipped: 0, facts, durationMs: 0 };
    windows.set(facts.functionId, window);
    if (window.logged < LOGGED_PER_WINDOW) {
      window.logged++;
      return true;
    }
    window.skipped++;
    window.durationMs += facts.durationMs;
    return false;
  }

  function summarise(): void {
    for (const [functionId, window] of windows) {
      if (window.skipped > 0) {
        const { facts } = window;
        logs.write({
          level: 'info',
          source: 'functions',
          message: `${facts.name}: ${window.skipped} more successful invocations in ${SUMMARY_WINDOW_MS / 1000} s`,
          path: facts.route,
          accountId: facts.accountId,
          context: {
            functionId,
            name: facts.name,
            summarised: window.skipped,
            averageDurationMs: Math.round((window.durationMs / window.skipped) * 10) / 10,
          },
        });
      }
    }
    windows.clear();
  }

  function enqueue(facts: InvocationFacts, cost: InvokeCost): void {
    const createdAt = new Date().toISOString();
    const failed = facts.error !== null || facts.status >= 500;
    count(facts, cost, createdAt, failed);
    if (!logsOneByOne(facts)) return;
    const lines = keptLogs(facts.logs);
    logs.write({
      level: failed ? 'error' : facts.status >= 400 ? 'warn' : 'info',
      source: 'functions',
      message: `${facts.name} ${facts.method} ${facts.status} in ${facts.durationMs} ms${facts.error ? ` (${facts.error})` : ''}`,
      path: facts.route,
      accountId: facts.accountId,
      context: {
        functionId: facts.functionId,
        name: facts.name,
        version: facts.version,
        status: facts.status,
        durationMs: facts.durationMs,
        cpuMs: cost.cpuMs,
        memoryMb: cost.memoryMb,
        ...(facts.error ? { error: facts.error } : {}),
        ...(lines.length > 0 ? { logs: lines.slice(0, 20) } : {}),
      },
    });
    if (queue.length >= MAX_QUEUE) queue.shift();
    queue.push({
      account_id: facts.accountId,
      function_id: facts.functionId,
      method: facts.method,
      status: facts.status,
      duration_ms: facts.durationMs,
      cpu_ms: cost.cpuMs,
      memory_mb: cost.memoryMb,
      error: facts.error,
      logs: JSON.stringify(lines),
      created_at: createdAt,
    });
    if (queue.length >= BATCH) void store();
  }

  const timer = setInterval(() => {
    if (queue.length > 0 || usage.size > 0) void store();
  }, FLUSH_EVERY_MS);
  timer.unref();
  const summaries = setInterval(summarise, SUMMARY_WINDOW_MS);
  summaries.unref();
  const retention = setInterval(() => {
    const cutoff = new Date(Date.now() - RETENTION_DAYS * 86_400_000).toISOString();
    deleteInvocationsBefore(db.kysely, cutoff, 10_000).catch((error: unknown) => options.onError?.(error));
  }, RETENTION_EVERY_MS);
  retention.unref();

  // Resolves once no invocation is waiting for its cost.
  const allSettled = () =>
    pending === 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const previous = settled;
          settled = () => {
            previous();
            resolve();
          };
        });

  return {
    record(facts) {
      if (closed) return;
      pending++;
      facts.cost
        .then((cost) => enqueue(facts, cost))
        .catch((error: unknown) => options.onError?.(error))
        .finally(() => {
          pending--;
          if (pending === 0) {
            const done = settled;
            settled = () => {};
            done();
          }
        });
    },
    async flush() {
      await allSettled();
      await store();
    },
    async close() {
      closed = true;
      clearInterval(timer);
      clearInterval(summaries);
      clearInterval(retention);
      await allSettled();
      summarise();
      await store();
    },
  };
}

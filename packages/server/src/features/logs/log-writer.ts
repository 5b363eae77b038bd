import type { Db } from '../../db/database.js';
import { contextJson, ENTRY_LIMITS, redactText } from '../../lib/redaction/redaction.js';
import type { LogInput } from './log-input.js';
import { insertLogRows, type NewLogRow } from './logs.store.js';
import { createRequestSummaries, type RequestSample } from './request-summaries.js';

// Basalt's own log is written off the requests' path. write() only appends to an in-memory queue; the queue is
// stored every FLUSH_EVERY_MS, or as soon as BATCH_SIZE entries wait, with a few multi-row INSERTs
// (logs.store.ts), one batch at a time. Formatting (timestamps, JSON, redaction) happens then too.
//
// The queue is bounded: when the database cannot keep up (a slow disk, PostgreSQL away), the oldest entries
// are dropped beyond MAX_QUEUE and counted, and the next batch that is stored says how many were lost. A batch
// that fails goes back to the front of the queue and is tried again on the next round. close() stores what is
// left, so a restart loses nothing that was logged before it.

/**
 * LOG_WRITER_DEFAULTS are the writer's rhythm and bounds. A batch is stored on the event loop (better-sqlite3 is
 * synchronous), so it is kept small: 100 entries take about 2 ms, which requests in flight wait for. Request
 * summaries (request-summaries.ts) are turned into entries every summaryEveryMs, or once maxSummaries are open.
 */
export type { LogInput } from './log-input.js';

const LOG_WRITER_DEFAULTS = {
  flushEveryMs: 1000,
  batchSize: 100,
  maxQueue: 20_000,
  summaryEveryMs: 10_000,
  maxSummaries: 5000,
};

/** LogWriterStats counts what a writer did since it started. */
export interface LogWriterStats {
  queued: number;
  written: number;
  dropped: number;
}

/** LogWriter queues entries and stores them in batches. */
export interface LogWriter {
  /** write queues an entry; it never waits and never throws. */
  write(entry: LogInput): void;
  /** countRequest counts a successful request into its summary (request-summaries.ts); never waits, never throws. */
  countRequest(sample: RequestSample): void;
  /** flush stores everything queued so far, request summaries included (tests, shutdown). */
  flush(): Promise<void>;
  /** close stops the timer and stores what is left; later writes are ignored. */
  close(): Promise<void>;
  stats(): LogWriterStats;
}

/** LogWriterOptions override the defaults; onError hears a batch that could not be stored. */
export interface LogWriterOptions {
  flushEveryMs?: number;
  batchSize?: number;
  maxQueue?: number;
  summaryEveryMs?: number;
  maxSummaries?: number;
  onError?: (error: unknown) => void;
}

const PATH_CHARS = 2000;

function toRow(entry: LogInput): NewLogRow {
  return {
    created_at: new Date(entry.at ?? Date.now()).toISOString(),
    level: entry.level,
    source: entry.source,
    message: redactText(entry.message, ENTRY_LIMITS.messageChars),
    path: entry.path ? entry.path.replaceAll('\u0000', '').slice(0, PATH_CHARS) : null,
    account_id: entry.accountId ?? null,
    context: contextJson(entry.context),
  };
}

/** createLogWriter starts a writer over a database; close it before the database. */
export function createLogWriter(db: Db, options: LogWriterOptions = {}): LogWriter {
  const { flushEveryMs, batchSize, maxQueue, summaryEveryMs, maxSummaries } = { ...LOG_WRITER_DEFAULTS, ...options };
  let queue: LogInput[] = [];
  const requests = createRequestSummaries();
  let written = 0;
  let droppedTotal = 0;
  // Dropped since the last notice was queued.
  let droppedUnreported = 0;
  let closed = false;
  let draining = false;
  let soon = false;
  // Every flush runs after the previous one: one batch in flight at a time, in order.
  let chain: Promise<void> = Promise.resolve();

  function drop(count: number): void {
    droppedTotal += count;
    droppedUnreported += count;
  }

  async function drain(): Promise<void> {
    draining = true;
    try {
      while (queue.length > 0) {
        if (droppedUnreported > 0) {
          queue.push({
            level: 'warn',
            source: 'jobs',
            message: `Dropped ${droppedUnreported} log entries: the database did not keep up`,
            context: { dropped: droppedUnreported, droppedSinceStart: droppedTotal },
          });
          droppedUnreported = 0;
        }
        const batch = queue.splice(0, batchSize);
        const rows = batch.map(toRow);
        try {
          await insertLogRows(db, rows);
          written += batch.length;
        } catch (error) {
          // Back to the front, oldest first; what no longer fits is the oldest, and it is dropped.
          const room = Math.max(0, maxQueue - queue.length);
          if (batch.length > room) drop(batch.length - room);
          queue = batch.slice(Math.max(0, batch.length - room)).concat(queue);
          options.onError?.(error);
          return;
        }
      }
    } finally {
      draining = false;
    }
  }

  function queueSummaries(): void {
    for (const entry of requests.take()) enqueue(entry);
  }

  function enqueue(entry: LogInput): void {
    if (queue.length >= maxQueue) {
      queue.shift();
      drop(1);
    }
    queue.push(entry.at === undefined ? { ...entry, at: Date.now() } : entry);
    if (queue.length >= batchSize && !soon && !draining) {
      soon = true;
      setImmediate(() => {
        soon = false;
        void store();
      });
    }
  }

  // Stores what is queued. Request summaries join the queue on their own timer, not here: a batch stored sooner
  // must not cut their window short.
  function store(): Promise<void> {
    // A failure is reported and the chain goes on: the next flush runs as if nothing happened.
    chain = chain.then(drain).catch((error: unknown) => options.onError?.(error));
    return chain;
  }

  function flush(): Promise<void> {
    queueSummaries();
    return store();
  }

  const timer = setInterval(() => {
    if (queue.length > 0 && !draining) void store();
  }, flushEveryMs);
  timer.unref();
  const summaryTimer = setInterval(queueSummaries, summaryEveryMs);
  summaryTimer.unref();

  return {
    write(entry) {
      if (!closed) enqueue(entry);
    },
    countRequest(sample) {
      if (closed) return;
      requests.add(sample);
      if (requests.size >= maxSummaries) queueSummaries();
    },
    flush,
    async close() {
      if (closed) return chain;
      closed = true;
      clearInterval(timer);
      clearInterval(summaryTimer);
      await flush();
    },
    stats: () => ({ queued: queue.length, written, dropped: droppedTotal }),
  };
}

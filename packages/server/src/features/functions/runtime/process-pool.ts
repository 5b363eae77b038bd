import { randomBytes } from 'node:crypto';
import type { FunctionsConfig } from '../../../config.js';
import type { EgressGateway } from './egress-gateway.js';
import { type Call, FunctionProcess, type InvokeResult } from './function-process.js';
import { readProcessStats } from './proc-stats.js';
import type { InvokeRequest } from './process-exchange.js';
import { type RelayError, relayErrors } from './relay-errors.js';
import type { RuntimeFiles } from './runtime-files.js';

// The processes of every function on this server: one per deployed function version, started on its first call
// and reused by the next ones. A watchdog looks at the busy processes every WATCH_EVERY_MS:
//   - CPU time: what the process used since the last look is shared equally among the calls in flight (and those
//     that ended since); a call past FUNCTIONS_CPU_MS gets the process killed (a busy loop blocks the whole
//     process, so only killing it frees it). The offending call answers 546 cpu_time; calls caught in the same
//     process answer 503 WORKER_RESTARTED.
//   - Memory: V8's heap is capped by --max-old-space-size; resident memory beyond the process's baseline plus
//     FUNCTIONS_MEMORY_MB (ArrayBuffers live outside the heap) gets the process killed, 546 memory.
//   - Wall clock: a call past FUNCTIONS_WALL_CLOCK_MS is ended alone (504); its process keeps serving the others.
// Idle processes stop after FUNCTIONS_IDLE_MS; at most
// FUNCTIONS_MAX_PROCESSES run, the least recently used idle one making room for a new one; one process serves at
// most FUNCTIONS_MAX_CONCURRENT_CALLS calls at once, so a function that calls itself (or fans out to itself) is
// refused at that depth instead of swamping the server.

/** WATCH_EVERY_MS is how often the watchdog samples busy processes. */
export const WATCH_EVERY_MS = 50;

/** FunctionTarget is what the pool needs to know to run a function. */
export interface FunctionTarget {
  id: number;
  accountId: string;
  version: number;
}

/** PoolDeps are where a process's code and environment come from. */
export interface PoolDeps {
  limits: FunctionsConfig;
  denoPath: () => string;
  files: RuntimeFiles;
  gateway: EgressGateway;
  /** environmentOf builds an account's function environment (secrets and SUPABASE_*). */
  environmentOf(accountId: string): Promise<Record<string, string>>;
  /** bundleOf reads a deployed version's bundle. */
  bundleOf(functionId: number, version: number): Promise<string>;
}

/** PoolStats describe the pool for tests and the bench. */
export interface PoolStats {
  processes: number;
  starts: number;
}

/** ProcessPool runs function calls on their processes. */
export interface ProcessPool {
  invoke(target: FunctionTarget, request: InvokeRequest): Promise<InvokeResult>;
  /** retireFunction makes a function's processes stop once idle (it changed, or was deleted). */
  retireFunction(functionId: number): void;
  /** retireAccount does the same for every process of an account (its secrets changed). */
  retireAccount(accountId: string): void;
  /** retireAll does it for every process (events may have been missed). */
  retireAll(): void;
  stats(): PoolStats;
  close(): Promise<void>;
}

/** createProcessPool makes an empty pool. */
export function createProcessPool(deps: PoolDeps): ProcessPool {
  const { limits } = deps;
  const byFunction = new Map<number, FunctionProcess>();
  const all = new Set<FunctionProcess>();
  let starts = 0;
  let closed = false;

  function forget(process: FunctionProcess): void {
    all.delete(process);
    if (byFunction.get(process.spec.functionId) === process) byFunction.delete(process.spec.functionId);
    deps.gateway.unregister(process.spec.token);
  }

  function retire(process: FunctionProcess): void {
    process.stale = true;
    if (byFunction.get(process.spec.functionId) === process) byFunction.delete(process.spec.functionId);
    if (process.inFlight === 0) process.kill();
  }

  // Room for one more process: stop the least recently used idle one, or say that all are busy.
  function makeRoom(): RelayError | null {
    if (all.size < limits.maxProcesses) return null;
    const idle = [...all].filter((p) => p.inFlight === 0).sort((a, b) => a.lastUsedAt - b.lastUsedAt)[0];
    if (!idle) return relayErrors.busy(limits.maxProcesses);
    retire(idle);
    forget(idle);
    return null;
  }

  async function start(target: FunctionTarget): Promise<FunctionProcess> {
    const [entry, environment] = await Promise.all([
      deps.files.versionEntry(target.id, target.version, () => deps.bundleOf(target.id, target.version)),
      deps.environmentOf(target.accountId),
    ]);
    const token = randomBytes(24).toString('base64url');
    deps.gateway.register(token, { accountId: target.accountId, functionId: target.id });
    const process = new FunctionProcess({
      token,
      functionId: target.id,
      accountId: target.accountId,
      version: target.version,
      entry,
      importMap: deps.files.importMap,
      denoDir: deps.files.denoDir,
      denoPath: deps.denoPath(),
      socketPath: deps.files.socketPath(),
      gatewayUrl: deps.gateway.urlFor(token),
      gatewayAddress: `127.0.0.1:${deps.gateway.port}`,
      environment,
      limits,
    });
    // What the runtime itself holds once started; the memory limit is counted above it.
    process.ready.then(
      () => {
        process.baselineRssBytes = readProcessStats(process.pid)?.rssBytes ?? 0;
      },
      () => {},
    );
    return process;
  }

  // Processes being started, by function: concurrent first calls share one start.
  const starting = new Map<number, Promise<FunctionProcess>>();

  async function processFor(target: FunctionTarget): Promise<FunctionProcess | RelayError> {
    const current = byFunction.get(target.id);
    if (current && !current.stale && current.spec.version === target.version && current.state !== 'exited') {
      return current;
    }
    if (current) retire(current);
    const pending = starting.get(target.id);
    if (pending) {
      const process = await pending;
      if (process.spec.version === target.version) return process;
    }
    const full = makeRoom();
    if (full) return full;
    const made = start(target).then((process) => {
      starts++;
      all.add(process);
      byFunction.set(target.id, process);
      void process.whenExited().then(() => forget(process));
      return process;
    });
    starting.set(target.id, made);
    try {
      return await made;
    } finally {
      starting.delete(target.id);
    }
  }

  function watch(): void {
    const now = Date.now();
    for (const process of all) {
      if (process.state === 'exited') continue;
      if (process.inFlight === 0 && process.settling.size === 0) {
        if (process.stale || (process.state === 'ready' && now - process.lastUsedAt > limits.idleMs)) {
          process.kill();
        }
        continue;
      }
      sample(process, now);
    }
  }

  function sample(process: FunctionProcess, now: number): void {
    for (const call of process.calls) {
      if (now - call.startedAt > limits.wallClockMs) call.fail(relayErrors.wallClock(limits.wallClockMs));
    }
    const stats = readProcessStats(process.pid);
    const participants = [...process.calls, ...process.settling];
    if (stats) {
      const delta = Math.max(0, stats.cpuMs - process.lastCpuMs);
      process.lastCpuMs = stats.cpuMs;
      const share = participants.length > 0 ? delta / participants.length : 0;
      for (const call of participants) {
        call.cpuMs += share;
        call.peakRssBytes = Math.max(call.peakRssBytes, stats.rssBytes);
      }
    }
    for (const call of process.settling) call.settleCost();
    process.settling.clear();
    if (!stats || process.state !== 'ready') return;
    if (stats.rssBytes > process.baselineRssBytes + limits.memoryMb * 1024 * 1024) {
      process.killForLimit('memory', new Set(process.calls));
      return;
    }
    const offenders = new Set([...process.calls].filter((call) => call.cpuMs > limits.cpuMs));
    if (offenders.size > 0) process.killForLimit('cpu_time', offenders);
  }

  const timer = setInterval(watch, WATCH_EVERY_MS);
  timer.unref();

  // A call's start: a process that was idle takes its CPU baseline now, so idle time is not charged to it.
  function begin(process: FunctionProcess) {
    return (_call: Call) => {
      if (process.inFlight === 1 && process.settling.size === 0) {
        const stats = readProcessStats(process.pid);
        if (stats) process.lastCpuMs = stats.cpuMs;
      }
    };
  }

  return {
    async invoke(target, request) {
      if (closed) return failed(relayErrors.unavailable('the server is shutting down'));
      let process: FunctionProcess | RelayError;
      try {
        process = await processFor(target);
      } catch (error) {
        return failed(relayErrors.unavailable(error instanceof Error ? error.message : String(error)));
      }
      if (!(process instanceof FunctionProcess)) return failed(process);
      if (process.inFlight >= limits.maxConcurrentCalls) return failed(relayErrors.crowded(limits.maxConcurrentCalls));
      return process.invoke(request, begin(process));
    },
    retireFunction(functionId) {
      for (const process of all) if (process.spec.functionId === functionId) retire(process);
    },
    retireAccount(accountId) {
      for (const process of all) if (process.spec.accountId === accountId) retire(process);
    },
    retireAll() {
      for (const process of all) retire(process);
    },
    stats: () => ({ processes: all.size, starts }),
    async close() {
      closed = true;
      clearInterval(timer);
      const exits = [...all].map((process) => {
        process.kill();
        return process.whenExited();
      });
      await Promise.all(exits);
    },
  };
}

function failed(error: RelayError): InvokeResult {
  return {
    status: 0,
    headers: [],
    body: Buffer.alloc(0),
    logs: [],
    durationMs: 0,
    error,
    cost: Promise.resolve({ cpuMs: 0, memoryMb: 0 }),
  };
}

import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import type { FunctionLogLine } from '@basalt/shared';
import { Pool } from 'undici';
import { NO_HANDLER_EXIT_CODE, READY_MARKER } from './deno-bootstrap.js';
import { denoCommand, type ProcessSpec } from './deno-command.js';
import { exchange, HOP_BY_HOP, type InvokeRequest } from './process-exchange.js';
import { type LimitName, type RelayError, relayErrors } from './relay-errors.js';
import { functionRelativePaths } from './runtime-files.js';

// One function version's Deno process: started on its first call, serving its calls concurrently over a Unix
// socket, stopped when idle, replaced on redeploy or when the account's secrets change. It runs locked down
// (deno-command.ts): nothing downloaded, no file system but its socket, the network only through the egress
// gateway, only its own environment variables, a capped V8 heap.
// CPU time, resident memory and the wall clock are enforced from outside by the pool's watchdog (process-pool.ts):
// a busy loop or a memory bomb cannot be stopped from within, so the process is killed; a call past the wall clock
// is ended alone.

/** InvokeCost is what a call used; known shortly after it ended (CPU time is sampled). */
export interface InvokeCost {
  cpuMs: number;
  memoryMb: number;
}

/** InvokeResult is how a call ended: the function's answer, or a relay error. */
export interface InvokeResult {
  status: number;
  headers: Array<[string, string]>;
  body: Buffer;
  logs: FunctionLogLine[];
  durationMs: number;
  error: RelayError | null;
  cost: Promise<InvokeCost>;
}

/** Call is one call in flight, as the pool's watchdog sees it. */
export interface Call {
  startedAt: number;
  cpuMs: number;
  peakRssBytes: number;
  /** fail ends the call with a relay error (the process is being killed). */
  fail(error: RelayError): void;
  settleCost(): void;
}

const BOOT_TIMEOUT_MS = 15_000;
// How long a call whose connection broke waits for the process's exit to learn why.
const EXIT_WAIT_MS = 1000;
const STDERR_KEPT = 8192;
const LOG_LINES = 200;
const LOG_CHARS = 10_000;
// The envelope's head (status, headers, logs) may add this much to a response's body.
const HEAD_ALLOWANCE = LOG_LINES * LOG_CHARS + 1024 * 1024;

/** FunctionProcess is one running (or starting, or stopped) Deno process. */
export class FunctionProcess {
  readonly spec: ProcessSpec;
  readonly calls = new Set<Call>();
  /** Calls that ended since the watchdog's last look: they still get their share of the CPU time it sees. */
  readonly settling = new Set<Call>();
  state: 'starting' | 'ready' | 'stopping' | 'exited' = 'starting';
  /** stale: a newer version or new secrets exist; the process takes no new calls and stops when idle. */
  stale = false;
  lastUsedAt = Date.now();
  startedAt = Date.now();
  readyAt = 0;
  baselineRssBytes = 0;
  lastCpuMs = 0;
  readonly ready: Promise<void>;
  private child: ChildProcess;
  private pool: Pool | null = null;
  private stderr = '';
  private killedFor: { limit: LimitName; offenders: Set<Call> } | null = null;
  private exitListeners: Array<() => void> = [];
  private readonly relativePaths: (text: string) => string;

  constructor(spec: ProcessSpec) {
    this.spec = spec;
    this.relativePaths = functionRelativePaths(spec.entry);
    const command = denoCommand(spec);
    this.child = spawn(command.file, command.args, { env: command.env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.ready = this.boot();
    // A failed boot is reported through `ready`; nobody may be waiting when it fails.
    this.ready.catch(() => {});
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get inFlight(): number {
    return this.calls.size;
  }

  private boot(): Promise<void> {
    const { child, spec } = this;
    child.stdin?.end(
      JSON.stringify({
        env: spec.environment,
        socket: spec.socketPath,
        gateway: spec.gatewayUrl,
        responseBytes: spec.limits.responseBytes,
        logLines: LOG_LINES,
        logChars: LOG_CHARS,
      }),
    );
    child.stdin?.on('error', () => {});
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-STDERR_KEPT);
    });
    child.on('exit', (code, signal) => this.exited(code, signal));
    return new Promise<void>((resolve, reject) => {
      let stdout = '';
      const timer = setTimeout(() => {
        reject(relayErrors.boot(`it did not start within ${BOOT_TIMEOUT_MS / 1000} s`));
        this.kill();
      }, BOOT_TIMEOUT_MS);
      child.stdout?.setEncoding('utf8');
      const onData = (chunk: string) => {
        stdout = (stdout + chunk).slice(-1024);
        if (!stdout.includes(READY_MARKER)) return;
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        clearTimeout(timer);
        this.pool = new Pool('http://function', {
          socketPath: spec.socketPath,
          connections: 256,
          keepAliveTimeout: 30_000,
          headersTimeout: 0,
          bodyTimeout: 0,
        });
        this.state = 'ready';
        this.readyAt = Date.now();
        resolve();
      };
      child.stdout?.on('data', onData);
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(relayErrors.unavailable(error.message));
      });
      this.exitListeners.push(() => {
        clearTimeout(timer);
        reject(this.bootFailure());
      });
    });
  }

  // Why the process ended before it was ready, in the words of Deno's first error line.
  private bootFailure(): RelayError {
    if (this.child.exitCode === NO_HANDLER_EXIT_CODE) {
      return relayErrors.boot('it neither calls Deno.serve(handler) nor exports default { fetch }');
    }
    if (this.isOutOfMemory()) return relayErrors.memory(this.spec.limits.memoryMb);
    return relayErrors.boot(this.firstError());
  }

  private isOutOfMemory(): boolean {
    return /out of memory|heap limit|allocation failed/i.test(this.stderr);
  }

  /** firstError is the first error line Deno wrote, without Basalt's file paths and the secrets' values. */
  firstError(): string {
    const line =
      this.stderr
        .split('\n')
        .map((l) => l.trim())
        .find((l) => /^error:|Error/.test(l)) ??
      this.stderr.trim().split('\n')[0] ??
      '';
    return this.scrub(line.replace(/^error:\s*/, '').replace(/file:\/\/\S*\/(function|entry)\.js/g, 'index.ts'));
  }

  /** scrub replaces the values of the process's secrets in a text, and Basalt's file paths by the function's. */
  scrub(text: string): string {
    let clean = this.relativePaths(text);
    for (const value of Object.values(this.spec.environment)) {
      if (value.length >= 4 && clean.includes(value)) clean = clean.replaceAll(value, '[secret]');
    }
    return clean;
  }

  private exited(code: number | null, signal: NodeJS.Signals | null): void {
    const wasReady = this.state === 'ready' || this.state === 'stopping';
    this.state = 'exited';
    void this.pool?.destroy().catch(() => {});
    fs.rm(this.spec.socketPath, { force: true }, () => {});
    for (const call of this.settling) call.settleCost();
    this.settling.clear();
    for (const listener of this.exitListeners.splice(0)) listener();
    // Before it was ready, `ready` rejects with the reason (bootFailure) and every waiting call gets it.
    if (!wasReady) return;
    const killed = this.killedFor;
    const outOfMemory = !killed && this.isOutOfMemory();
    const detail = code !== null ? `exit code ${code}` : `signal ${signal}`;
    for (const call of [...this.calls]) {
      if (killed) {
        call.fail(
          killed.offenders.has(call) ? this.limitError(killed.limit) : relayErrors.stoppedForAnother(killed.limit),
        );
      } else if (outOfMemory) {
        call.fail(relayErrors.memory(this.spec.limits.memoryMb));
      } else {
        const reason = this.firstError();
        call.fail(relayErrors.crashed(reason ? `${reason} (${detail})` : detail));
      }
    }
  }

  private limitError(limit: LimitName): RelayError {
    const { limits } = this.spec;
    return limit === 'cpu_time' ? relayErrors.cpuTime(limits.cpuMs) : relayErrors.memory(limits.memoryMb);
  }

  /** killForLimit kills the process because of a limit; `offenders` get that limit's error, the others a retry. */
  killForLimit(limit: LimitName, offenders: Set<Call>): void {
    if (this.state === 'exited') return;
    this.killedFor = { limit, offenders };
    this.kill();
  }

  /** kill stops the process at once. */
  kill(): void {
    if (this.state === 'exited') return;
    this.state = 'stopping';
    this.child.kill('SIGKILL');
  }

  /** whenExited resolves once the process has ended. */
  whenExited(): Promise<void> {
    if (this.state === 'exited') return Promise.resolve();
    return new Promise((resolve) => this.exitListeners.push(resolve));
  }

  /** invoke sends one call to the process (ready first) and returns how it ended; it never throws. */
  async invoke(request: InvokeRequest, begin: (call: Call) => void): Promise<InvokeResult> {
    const started = performance.now();
    const { limits } = this.spec;
    let settleCost: (cost: InvokeCost) => void = () => {};
    const cost = new Promise<InvokeCost>((resolve) => {
      settleCost = resolve;
    });
    let failure: RelayError | null = null;
    // Ends the wait for the process (while it boots) or for its answer, once the call has failed.
    let interrupt: (error: RelayError) => void = () => {};
    const call: Call = {
      startedAt: Date.now(),
      cpuMs: 0,
      peakRssBytes: 0,
      fail: (error) => {
        failure ??= error;
        interrupt(error);
      },
      settleCost: () =>
        settleCost({ cpuMs: Math.round(call.cpuMs), memoryMb: Math.round(call.peakRssBytes / 1048576) }),
    };
    const end = (result: Omit<InvokeResult, 'durationMs' | 'cost'>): InvokeResult => {
      this.calls.delete(call);
      // An exited process is not sampled any more: what was seen is all there is.
      if (this.state === 'exited') call.settleCost();
      else this.settling.add(call);
      this.lastUsedAt = Date.now();
      return { ...result, durationMs: Math.round((performance.now() - started) * 10) / 10, cost };
    };
    this.lastUsedAt = Date.now();
    this.calls.add(call);
    begin(call);
    try {
      if (this.state !== 'ready') {
        await Promise.race([
          this.ready,
          new Promise<never>((_, reject) => {
            interrupt = reject;
          }),
        ]);
      }
      if (failure) throw failure;
      if (!this.pool) throw relayErrors.crashed('the process is gone');
      const answer = await exchange(this.pool, request, limits.responseBytes + HEAD_ALLOWANCE, (abort) => {
        interrupt = abort;
        if (failure) abort(failure);
      });
      if (answer === null || !Number.isSafeInteger(answer.headLength)) {
        return end({ ...empty(), error: relayErrors.responseSize(limits.responseBytes) });
      }
      const { payload, headLength } = answer;
      const head = JSON.parse(payload.toString('utf8', 0, headLength)) as EnvelopeHead;
      const logs =
        head.logs && head.logs.length > 0
          ? head.logs.map((line) => ({ level: line.level, message: this.scrub(line.message) }))
          : [];
      if (head.error === 'response_size') {
        return end({ ...empty(), logs, error: relayErrors.responseSize(limits.responseBytes) });
      }
      if (head.error === 'threw') return end({ ...empty(), logs, error: relayErrors.threw() });
      return end({
        status: head.status ?? 200,
        headers: (head.headers ?? []).filter(([name]) => !HOP_BY_HOP.has(name)),
        body: payload.subarray(headLength),
        logs,
        error: null,
      });
    } catch (error) {
      if (!failure && !isRelayError(error)) {
        // The connection broke: the process is most likely ending, and its exit says why (a limit, a crash).
        await Promise.race([this.whenExited(), new Promise((resolve) => setTimeout(resolve, EXIT_WAIT_MS))]);
      }
      const relay = failure ?? (isRelayError(error) ? error : relayErrors.crashed(this.firstError() || 'no answer'));
      return end({ ...empty(), error: relay });
    }
  }
}

interface EnvelopeHead {
  status?: number;
  headers?: Array<[string, string]>;
  logs?: FunctionLogLine[];
  error?: 'threw' | 'response_size';
}

const empty = () => ({
  status: 0,
  headers: [] as Array<[string, string]>,
  body: Buffer.alloc(0),
  logs: [] as FunctionLogLine[],
});

function isRelayError(value: unknown): value is RelayError {
  return typeof value === 'object' && value !== null && 'code' in value && 'relay' in value && 'status' in value;
}

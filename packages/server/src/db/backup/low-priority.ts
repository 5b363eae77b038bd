import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { restAfter, SLICE_MS } from './pace.js';

// A backup's heavy work (copying a gigabyte of database, hashing and compressing it) runs in a child process at the
// lowest CPU priority: on a busy machine the server's own thread goes first and the backup takes what is left,
// instead of the two halving each other's time. The child is evaluated source (the server ships as one bundled
// file) that loads its modules by the absolute URLs the server resolved.

/** LowPriorityError is a failure of the child's work, with the error's code (ENOSPC, SQLITE_FULL…). */
export class LowPriorityError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
  ) {
    super(message);
    this.name = 'LowPriorityError';
  }
}

/** moduleUrl is the file URL of a dependency as this server resolves it, for a child's `import()`. */
export function moduleUrl(name: string): string {
  return pathToFileURL(createRequire(import.meta.url).resolve(name)).href;
}

/** modulesRoot is the folder whose node_modules holds a dependency: a child started there imports it by name. */
export function modulesRoot(name: string): string {
  const resolved = createRequire(import.meta.url).resolve(name);
  return resolved.slice(0, resolved.lastIndexOf(`${path.sep}node_modules${path.sep}`));
}

// Wraps a job's body: its input arrives as JSON on stdin, its result leaves as one JSON line on stdout. A paced child
// (BASALT_PACE_REST_MS) stops its own thread for that long after each slice of work: its reads, hashing and
// compression wait, and the thread pool's work with them once the chunk in flight is done. A child
// whose server died (kill -9) stops at once: its work is abandoned with it (a copy's transaction rolls back), and
// the file it was writing (input.out) goes too. A child at the lowest priority on a busy machine may run long
// after its server died, past the restarted server's clean-up: it looks before it starts, while it runs and before
// it answers, so it never leaves a file behind.
const wrap = (body: string) => `
import { rmSync } from 'node:fs';
const parent = process.ppid;
let input = null;
const leaveIfOrphaned = () => {
  if (process.ppid === parent) return;
  if (typeof input?.out === 'string') rmSync(input.out, { force: true });
  process.exit(1);
};
setInterval(leaveIfOrphaned, 200).unref();
const rest = Number(process.env.BASALT_PACE_REST_MS ?? 0);
if (rest > 0) {
  // Timers count from the loop's time as it was before a rest: the slice is measured on the clock.
  const slice = Number(process.env.BASALT_PACE_SLICE_MS);
  const cell = new Int32Array(new SharedArrayBuffer(4));
  let sliceStart = performance.now();
  setInterval(() => {
    if (performance.now() - sliceStart < slice) return;
    Atomics.wait(cell, 0, 0, rest);
    sliceStart = performance.now();
  }, 10).unref();
}
let text = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { text += chunk; });
process.stdin.on('end', async () => {
  try {
    input = JSON.parse(text);
    leaveIfOrphaned();
    const result = await (async () => { ${body} })();
    leaveIfOrphaned();
    process.stdout.write(JSON.stringify({ result: result ?? null }) + '\\n');
  } catch (error) {
    process.stdout.write(JSON.stringify({ error: String(error?.message ?? error), code: error?.code ?? null }) + '\\n');
  }
});`;

/**
 * runLowPriority runs `body` (an async function body that reads `input` and returns a JSON value) in a child
 * process at the lowest priority, working `pace` (0–1] of the time (db/backup/pace.ts), and resolves with what
 * it returned.
 */
export function runLowPriority<T>(
  body: string,
  input: unknown,
  options: { cwd?: string; pace?: number } = {},
): Promise<T> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', wrap(body)], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: {
      ...process.env,
      BASALT_PACE_SLICE_MS: String(SLICE_MS),
      BASALT_PACE_REST_MS: String(Math.round(restAfter(SLICE_MS, options.pace ?? 1))),
    },
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  try {
    if (child.pid !== undefined) os.setPriority(child.pid, 19);
  } catch {
    // Not allowed here (a container's seccomp profile): the work runs at normal priority.
  }
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  child.stdin.end(JSON.stringify(input));
  return new Promise<T>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      let answer: { result?: T; error?: string; code?: string | null } | null = null;
      try {
        answer = JSON.parse(line);
      } catch {
        answer = null;
      }
      if (answer && 'result' in answer) resolve(answer.result as T);
      else if (answer?.error) reject(new LowPriorityError(answer.error, answer.code ?? null));
      else
        reject(
          new LowPriorityError(`the backup's process stopped (exit code ${code}): ${err.trim().slice(-300)}`, null),
        );
    });
  });
}

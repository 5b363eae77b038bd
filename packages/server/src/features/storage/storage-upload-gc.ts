import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// Every chunk of an upload's body is a new buffer outside V8's heap (Node's HTTP parser copies each one), dead as
// soon as it is written. Only a garbage collection frees such buffers, and the server's own allocations are too few
// to set off the cheap young-generation one (a scavenge) while bytes stream in: V8 then starts a full collection of
// the whole heap for every 64 MB of them, which on Basalt's ~55 MB heap costs 50–200 ms of marking (the bare
// node:http server's 5 MB heap: ~3 ms). So every 16 MB received asks V8 for a scavenge, which frees those buffers
// in about a millisecond. Measured in docs/performance.md (File storage): a 100 MB upload went from 11–23 full
// collections to none or two. The collector is taken as main.ts takes its flags, by setting one at run time;
// where that gives nothing, uploads go on without it.

const EVERY_BYTES = 16 * 1024 * 1024;

type Collect = (options: { type: 'minor' }) => void;

function collector(): Collect | null {
  const exposed: unknown = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === 'function') return exposed as Collect;
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as Collect) : null;
  } catch {
    return null;
  } finally {
    // Only this module's copy: no other context gets a `gc` of its own.
    setFlagsFromString('--no-expose-gc');
  }
}

const collect = collector();
let received = 0;

/** noteReceived counts bytes of an upload's body; past every 16 MB it runs a young-generation collection. */
export function noteReceived(bytes: number): void {
  received += bytes;
  if (received < EVERY_BYTES || !collect) return;
  received = 0;
  collect({ type: 'minor' });
}

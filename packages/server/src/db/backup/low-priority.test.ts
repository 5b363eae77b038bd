import { describe, expect, it } from 'vitest';
import { runLowPriority } from './low-priority.js';

// A paced child (BACKUP_PACE's hashing and packing) stops its own thread between slices of work: a job that
// could run flat out sees its loop stand still for most of the time.

// Spins its event loop for `input.ms` and adds up the stretches in which it did not get to run (over 100 ms each).
const SPIN = `
  const started = performance.now();
  let last = started;
  let stood = 0;
  while (performance.now() - started < input.ms) {
    await new Promise((resolve) => setImmediate(resolve));
    const now = performance.now();
    if (now - last > 100) stood += now - last;
    last = now;
  }
  return { stood, elapsed: performance.now() - started };`;

describe('runLowPriority', () => {
  it('returns what the body returned', async () => {
    expect(await runLowPriority<number>('return input.a + 1;', { a: 41 })).toBe(42);
  });

  it('keeps a paced child to its share of the time', async () => {
    const { stood, elapsed } = await runLowPriority<{ stood: number; elapsed: number }>(
      SPIN,
      { ms: 2000 },
      {
        pace: 0.2,
      },
    );
    // At a fifth, the loop stands still about four fifths of the time (a busy machine only adds to it).
    expect(stood / elapsed).toBeGreaterThan(0.6);
  }, 30_000);
});

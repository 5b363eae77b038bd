import { describe, expect, it } from 'vitest';
import { Pacer, restAfter } from './pace.js';

// A paced job works only its share of the wall-clock time: the decision (how long to rest after a slice) and a job
// that could work flat out being held to it.

describe('restAfter', () => {
  it.each([
    { worked: 200, share: 0.25, rest: 600 },
    { worked: 100, share: 0.5, rest: 100 },
    { worked: 300, share: 0.1, rest: 2700 },
    { worked: 200, share: 1, rest: 0 },
    { worked: 0, share: 0.25, rest: 0 },
  ])('rests $rest ms after $worked ms of work at a share of $share', ({ worked, share, rest }) => {
    expect(restAfter(worked, share)).toBeCloseTo(rest, 6);
  });
});

describe('Pacer', () => {
  it('rests nothing until a slice of work is done', () => {
    const pacer = new Pacer(0.25, 1000);
    expect(pacer.restDue()).toBe(0);
  });

  it('keeps a job that could work flat out to its share of the time', async () => {
    const share = 0.2;
    const pacer = new Pacer(share, 20);
    const started = performance.now();
    // Work in units of ~1 ms (a busy wait, as reading and compressing would be) for about a second.
    while (performance.now() - started < 1000) {
      const unit = performance.now();
      while (performance.now() - unit < 1);
      await pacer.step();
    }
    const elapsed = performance.now() - started;
    // Unpaced, it would rest nothing; paced, 80 % of the time less the slice it ended in. A slow machine's late
    // timers only lengthen the rests.
    expect(pacer.stats.restedMs / elapsed).toBeGreaterThan(0.65);
    expect(pacer.stats.workedMs).toBeLessThan(elapsed * share + 20 * 2);
  });

  it('never rests at a share of 1', async () => {
    const pacer = new Pacer(1, 0);
    const unit = performance.now();
    while (performance.now() - unit < 5);
    await pacer.step();
    expect(pacer.stats.restedMs).toBe(0);
  });
});

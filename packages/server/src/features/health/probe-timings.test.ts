import { describe, expect, it } from 'vitest';
import { createProbeTimings } from './probe-timings.js';

describe('probe timings', () => {
  const window = { size: 4, windowMs: 1000, slowMs: 100, sampleEveryMs: 100 };

  it('averages the probes of the window and counts the slow ones', () => {
    const timings = createProbeTimings(window);
    expect(timings.summary(0)).toEqual({ count: 0, avgMs: 0, slow: 0 });
    timings.record(1, 0);
    timings.record(2, 10);
    timings.record(150, 20);
    expect(timings.summary(100)).toEqual({ count: 3, avgMs: 51, slow: 1 });
  });

  it('forgets probes older than the window', () => {
    const timings = createProbeTimings(window);
    timings.record(500, 0);
    timings.record(3, 900);
    expect(timings.summary(1500)).toEqual({ count: 1, avgMs: 3, slow: 0 });
  });

  it('keeps only the last `size` probes', () => {
    const timings = createProbeTimings(window);
    for (const ms of [1000, 1, 2, 3, 4]) timings.record(ms, 0);
    expect(timings.summary(0)).toEqual({ count: 4, avgMs: 2.5, slow: 0 });
  });
});

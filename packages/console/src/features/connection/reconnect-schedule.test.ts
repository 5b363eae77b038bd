import { describe, expect, it } from 'vitest';
import { MAX_RECONNECT_ATTEMPTS, RECONNECT_MAX_JITTER_MS, reconnectDelay } from './reconnect-schedule';

describe('reconnectDelay', () => {
  it('grows from 2 s by 1.5× per attempt and caps at 30 s (without jitter)', () => {
    const noJitter = () => 0;
    expect(Array.from({ length: MAX_RECONNECT_ATTEMPTS }, (_, i) => reconnectDelay(i, noJitter))).toEqual([
      2000, 3000, 4500, 6750, 10125, 15187.5, 22781.25, 30000, 30000, 30000,
    ]);
  });

  it('adds up to 1000 ms of jitter', () => {
    expect(reconnectDelay(0, () => 0.5)).toBe(2500);
    expect(reconnectDelay(0, () => 0.9999)).toBe(2999);
    expect(reconnectDelay(9, () => 0.9999)).toBe(30_999);
    for (let i = 0; i < 50; i++) {
      const d = reconnectDelay(3);
      expect(d).toBeGreaterThanOrEqual(6750);
      expect(d).toBeLessThan(6750 + RECONNECT_MAX_JITTER_MS);
    }
  });

  it('allows at most 10 attempts', () => {
    expect(MAX_RECONNECT_ATTEMPTS).toBe(10);
  });
});

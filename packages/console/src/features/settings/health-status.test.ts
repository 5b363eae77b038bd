import { describe, expect, it } from 'vitest';
import { engineFacts, formatMilliseconds, formatPercent, HEALTH_LABELS, healthStatus } from './health-status';

describe('healthStatus', () => {
  it.each([
    [{ checking: true, failed: true, connected: true }, 'Checking'],
    [{ checking: false, failed: true, connected: true }, 'Error'],
    [{ checking: false, failed: false, connected: true }, 'Connected'],
    [{ checking: false, failed: false, connected: false }, 'Disconnected'],
    [{ checking: false, failed: false, connected: undefined }, 'Unknown'],
  ])('%o reads %s', (state, label) => {
    expect(HEALTH_LABELS[healthStatus(state)]).toBe(label);
  });
});

describe('the metric formats', () => {
  it('shows a ratio as a clamped whole percentage', () => {
    expect(formatPercent(0.256)).toBe('26%');
    expect(formatPercent(1.4)).toBe('100%');
    expect(formatPercent(-0.1)).toBe('0%');
  });

  it('shows milliseconds with the precision that matters', () => {
    expect(formatMilliseconds(0.4219)).toBe('0.42 ms');
    expect(formatMilliseconds(12.34)).toBe('12.3 ms');
    expect(formatMilliseconds(1204.2)).toBe('1,204 ms');
  });
});

describe('engineFacts', () => {
  it('reads SQLite details', () => {
    expect(
      engineFacts({
        engine: 'sqlite',
        sizeBytes: 1_572_864,
        pageSize: 4096,
        pageCount: 384,
        freePages: 3,
        walSizeBytes: 0,
        probeQueries: 90,
        slowQueryMs: 100,
      }),
    ).toEqual([
      { label: 'Database size', value: '1.5 MB' },
      { label: 'Write-ahead log', value: '0 B' },
      { label: 'Free pages', value: '3' },
      { label: 'Probe queries timed', value: '90' },
      { label: 'Slow above', value: '100 ms' },
    ]);
  });

  it('reads PostgreSQL details, the pool included', () => {
    expect(
      engineFacts({
        engine: 'postgres',
        sizeBytes: 8_000_000,
        serverConnections: 12,
        longRunningQueries: 0,
        pool: { size: 3, idle: 2, waiting: 1, max: 10 },
      }),
    ).toEqual([
      { label: 'Database size', value: '7.6 MB' },
      { label: 'Server connections', value: '12' },
      { label: 'Queries running over 1 s', value: '0' },
      { label: 'Connection pool', value: '3 of 10, 2 idle, 1 waiting' },
    ]);
  });

  it('leaves out what it does not know', () => {
    expect(engineFacts({ engine: 'sqlite', mystery: 1, pool: null, sizeBytes: 'big' })).toEqual([]);
  });
});

import { constants, PerformanceObserver } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { noteReceived } from './storage-upload-gc.js';

// The young-generation collection uploads ask for: 16 MB of body bytes noted run one (seen as a minor GC entry).

async function minorCollectionsDuring(work: () => void): Promise<number> {
  let minor = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if ((entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) minor++;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  work();
  // GC entries are delivered on a later turn of the event loop.
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  return minor;
}

describe('noteReceived', () => {
  it('runs a young-generation collection for every 16 MB of upload noted', async () => {
    noteReceived(16 * 1024 * 1024); // from a known point: the count is process-wide
    expect(await minorCollectionsDuring(() => noteReceived(16 * 1024 * 1024))).toBeGreaterThanOrEqual(1);
  });
});

import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../testing/bus-nodes.js';
import { createEventBus, type EventBus } from './event-bus.js';
import { createRedisTransport } from './redis-transport.js';
import '../../testing/bus-test-topics.js';

// The bus over Redis pub/sub (REDIS_URL), against the Redis of the machine (127.0.0.1:6379; TEST_REDIS_URL names
// another): each node hears the others' events in order and never its own twice, a large event goes through as is,
// and a subscription Redis drops makes the bus unreliable until it is back, with a reset each time.

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

interface Node {
  bus: EventBus;
  nodeId: string;
  pings: Array<{ n: number; local: boolean }>;
  texts: string[];
  resets: boolean[];
  errors: unknown[];
}

describe('event bus across nodes on Redis', () => {
  const channel = `basalt_test_${randomBytes(4).toString('hex')}`;
  let nodes: Node[] = [];

  afterEach(async () => {
    await Promise.all(nodes.map((node) => node.bus.close()));
    nodes = [];
  });

  function start(): Node {
    const errors: unknown[] = [];
    const transport = createRedisTransport({ redisUrl: REDIS_URL, channel, onError: (e) => errors.push(e) });
    const bus = createEventBus({ transport, onError: (e) => errors.push(e) });
    const node: Node = { bus, nodeId: transport.nodeId, pings: [], texts: [], resets: [], errors };
    bus.subscribe('bus-test.ping', ({ n }, origin) => node.pings.push({ n, local: origin.local }));
    bus.subscribe('bus-test.text', ({ text }) => node.texts.push(text));
    bus.onReset(() => node.resets.push(bus.reliable));
    nodes.push(node);
    return node;
  }

  it('delivers in order to the other node, and to its own node once, as local', async () => {
    const a = start();
    const b = start();
    await waitFor(() => a.bus.reliable && b.bus.reliable);
    expect(a.resets).toEqual([true]);
    for (let n = 0; n < 500; n++) {
      a.bus.publish('bus-test.ping', { n });
      if (n % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    const large = '€'.repeat(100_000);
    a.bus.publish('bus-test.text', { text: large });
    await waitFor(() => expect(b.pings).toHaveLength(500));
    await waitFor(() => expect(b.texts).toEqual([large]));
    expect(b.pings.map((p) => p.n)).toEqual(Array.from({ length: 500 }, (_, n) => n));
    expect(b.pings.every((p) => !p.local)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(a.pings).toHaveLength(500);
    expect(a.pings.every((p) => p.local)).toBe(true);
    expect([...a.errors, ...b.errors]).toEqual([]);
  });

  it('is unreliable while Redis drops its subscription, and hears again once it is back', async () => {
    const a = start();
    const b = start();
    await waitFor(() => a.bus.reliable && b.bus.reliable);
    const admin = new Redis(REDIS_URL);
    try {
      // Only B's subscription: other suites may be using this Redis.
      const list = String(await admin.client('LIST'));
      const line = list.split('\n').find((l) => l.includes(`name=basalt-bus-${b.nodeId}-sub`));
      const id = /\bid=(\d+)/.exec(line ?? '')?.[1];
      expect(id).toBeDefined();
      await admin.client('KILL', 'ID', String(id));
    } finally {
      admin.disconnect();
    }
    await waitFor(() => expect(b.resets).toContain(false));
    await waitFor(() => expect(b.resets.at(-1)).toBe(true));
    expect(b.bus.reliable).toBe(true);
    a.bus.publish('bus-test.ping', { n: 7 });
    await waitFor(() => expect(b.pings).toEqual([{ n: 7, local: false }]));
  });

  it('closes without hanging when Redis cannot be reached, having said so once', async () => {
    const errors: unknown[] = [];
    const transport = createRedisTransport({
      redisUrl: 'redis://127.0.0.1:1',
      channel,
      onError: (e) => errors.push(e),
    });
    const bus = createEventBus({ transport });
    bus.publish('bus-test.ping', { n: 1 });
    await waitFor(() => expect(errors.length).toBeGreaterThan(0));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(bus.reliable).toBe(false);
    await bus.close();
    expect(errors).toHaveLength(1);
  });
});

import { describe, expect, it } from 'vitest';
import '../../testing/bus-test-topics.js';
import { type BusTransport, type BusTransportHandlers, createEventBus } from './event-bus.js';

/** A transport that records what it is given and lets the test speak for the other nodes. */
function fakeTransport() {
  const sent: string[] = [];
  let handlers: BusTransportHandlers | null = null;
  let closed = 0;
  const transport: BusTransport = {
    start: (h) => {
      handlers = h;
    },
    send: (message) => sent.push(message),
    close: async () => {
      closed++;
    },
  };
  const other = () => {
    if (!handlers) throw new Error('the bus did not start its transport');
    return handlers;
  };
  return { transport, sent, other, closedCount: () => closed };
}

describe('event bus in one process', () => {
  it('delivers to every subscriber at once, in publish order, as local events', () => {
    const bus = createEventBus({});
    const heard: string[] = [];
    bus.subscribe('bus-test.ping', ({ n }, origin) => heard.push(`a${n}:${origin.local}`));
    bus.subscribe('bus-test.ping', ({ n }, origin) => heard.push(`b${n}:${origin.local}`));
    bus.subscribe('bus-test.text', ({ text }) => heard.push(`text ${text}`));
    bus.publish('bus-test.ping', { n: 1 });
    bus.publish('bus-test.text', { text: 'x' });
    bus.publish('bus-test.ping', { n: 2 });
    // Synchronous: all of it is there before publish returns, nothing awaited.
    expect(heard).toEqual(['a1:true', 'b1:true', 'text x', 'a2:true', 'b2:true']);
  });

  it('stops delivering to an unsubscribed listener, also one removed during a delivery', () => {
    const bus = createEventBus({});
    const heard: string[] = [];
    const stopA = bus.subscribe('bus-test.ping', ({ n }) => heard.push(`a${n}`));
    const stopB = bus.subscribe('bus-test.ping', ({ n }) => {
      heard.push(`b${n}`);
      stopC();
    });
    const stopC = bus.subscribe('bus-test.ping', ({ n }) => heard.push(`c${n}`));
    bus.publish('bus-test.ping', { n: 1 });
    stopA();
    bus.publish('bus-test.ping', { n: 2 });
    stopB();
    stopB();
    bus.publish('bus-test.ping', { n: 3 });
    // c still hears the delivery during which it was removed, not the next ones.
    expect(heard).toEqual(['a1', 'b1', 'c1', 'b2']);
  });

  it('keeps one subscription per subscribe call, even of the same function', () => {
    const bus = createEventBus({});
    const heard: number[] = [];
    const listener = ({ n }: { n: number }) => heard.push(n);
    const stopFirst = bus.subscribe('bus-test.ping', listener);
    bus.subscribe('bus-test.ping', listener);
    bus.publish('bus-test.ping', { n: 1 });
    stopFirst();
    bus.publish('bus-test.ping', { n: 2 });
    expect(heard).toEqual([1, 1, 2]);
  });

  it('goes on past a throwing subscriber and reports it, without failing publish', () => {
    const errors: unknown[] = [];
    const bus = createEventBus({ onError: (error) => errors.push(error) });
    const heard: number[] = [];
    bus.subscribe('bus-test.ping', () => {
      throw new Error('listener broke');
    });
    bus.subscribe('bus-test.ping', ({ n }) => heard.push(n));
    expect(() => bus.publish('bus-test.ping', { n: 7 })).not.toThrow();
    bus.publish('bus-test.ping', { n: 8 });
    expect(heard).toEqual([7, 8]);
    expect(errors.map((e) => (e as Error).message)).toEqual(['listener broke', 'listener broke']);
  });

  it('is reliable and never resets without a transport; after close it delivers nothing', async () => {
    const bus = createEventBus({ transport: null });
    let resets = 0;
    bus.onReset(() => resets++);
    const heard: number[] = [];
    bus.subscribe('bus-test.ping', ({ n }) => heard.push(n));
    bus.publish('bus-test.ping', { n: 1 });
    expect(bus.reliable).toBe(true);
    await bus.close();
    bus.publish('bus-test.ping', { n: 2 });
    expect(heard).toEqual([1]);
    expect(resets).toBe(0);
  });
});

describe('event bus over a transport', () => {
  it('hands each event to the transport as JSON, after the local subscribers heard it', () => {
    const fake = fakeTransport();
    const bus = createEventBus({ transport: fake.transport });
    const order: string[] = [];
    bus.subscribe('bus-test.ping', () => order.push(`local, ${fake.sent.length} sent`));
    bus.publish('bus-test.ping', { n: 1 });
    bus.publish('bus-test.text', { text: 'é"\n' });
    expect(order).toEqual(['local, 0 sent']);
    expect(fake.sent.map((m) => JSON.parse(m))).toEqual([
      { topic: 'bus-test.ping', payload: { n: 1 } },
      { topic: 'bus-test.text', payload: { text: 'é"\n' } },
    ]);
  });

  it("delivers other nodes' events in order as not local, and ignores topics nobody here subscribed to", () => {
    const fake = fakeTransport();
    const bus = createEventBus({ transport: fake.transport });
    const heard: string[] = [];
    bus.subscribe('bus-test.ping', ({ n }, origin) => heard.push(`${n}:${origin.local}`));
    fake.other().deliver([
      { topic: 'bus-test.ping', payload: { n: 1 } },
      { topic: 'feature.unknown', payload: {} },
      { topic: 'bus-test.ping', payload: { n: 2 } },
    ]);
    expect(heard).toEqual(['1:false', '2:false']);
    expect(fake.sent).toEqual([]);
  });

  it('is unreliable until the transport hears the other nodes, and follows each reset', () => {
    const fake = fakeTransport();
    const errors: unknown[] = [];
    const bus = createEventBus({ transport: fake.transport, onError: (error) => errors.push(error) });
    const seen: boolean[] = [];
    bus.onReset(() => seen.push(bus.reliable));
    const stop = bus.onReset(() => {
      throw new Error('reset listener broke');
    });
    expect(bus.reliable).toBe(false);
    fake.other().reset(true);
    expect(bus.reliable).toBe(true);
    fake.other().reset(false);
    expect(bus.reliable).toBe(false);
    stop();
    fake.other().reset(true);
    expect(seen).toEqual([true, false, true]);
    expect(errors).toHaveLength(2);
  });

  it('reports a payload JSON cannot hold and sends nothing for it', () => {
    const fake = fakeTransport();
    const errors: unknown[] = [];
    const bus = createEventBus({ transport: fake.transport, onError: (error) => errors.push(error) });
    const heard: unknown[] = [];
    bus.subscribe('bus-test.text', (payload) => heard.push(payload));
    const cyclic: { text: string; self?: unknown } = { text: 'loop' };
    cyclic.self = cyclic;
    bus.publish('bus-test.text', cyclic);
    expect(heard).toEqual([cyclic]);
    expect(fake.sent).toEqual([]);
    expect(errors).toHaveLength(1);
  });

  it('closes its transport once and then neither sends nor delivers', async () => {
    const fake = fakeTransport();
    const bus = createEventBus({ transport: fake.transport });
    const heard: number[] = [];
    bus.subscribe('bus-test.ping', ({ n }) => heard.push(n));
    await bus.close();
    await bus.close();
    bus.publish('bus-test.ping', { n: 1 });
    fake.other().deliver([{ topic: 'bus-test.ping', payload: { n: 2 } }]);
    expect(fake.closedCount()).toBe(1);
    expect(fake.sent).toEqual([]);
    expect(heard).toEqual([]);
  });
});

// A bus node in a process of its own, for the test across processes (db/bus/postgres-notify.processes.test.ts).
// Usage: node --import tsx bus-node.ts <databaseUrl>
// It answers every `bus-test.ping` with a `bus-test.pong` of the same number, prints `ready` once it hears the
// other nodes, and on the ping BUS_TEST_STOP closes its bus and returns: the process then ends by itself only if
// close() left no connection or timer behind.
import { createEventBus } from '../db/bus/event-bus.js';
import { createPostgresTransport } from '../db/bus/postgres-notify.js';
import { BUS_TEST_STOP } from './bus-test-topics.js';

const databaseUrl = process.argv[2];
if (!databaseUrl) throw new Error('usage: bus-node.ts <databaseUrl>');
const transport = createPostgresTransport({ databaseUrl });
const bus = createEventBus({ transport, onError: (error) => console.error(String(error)) });

const stopReady = bus.onReset(() => {
  if (!bus.reliable) return;
  stopReady();
  console.log(`ready ${transport.nodeId}`);
});
bus.subscribe('bus-test.ping', ({ n }) => {
  if (n !== BUS_TEST_STOP) {
    bus.publish('bus-test.pong', { n, from: transport.nodeId });
    return;
  }
  void bus.close().then(() => console.log('closed'));
});

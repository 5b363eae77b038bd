// One node of `npm run bench:bus`, in a process of its own (bench/bus.mjs forks two). It runs the server's bus
// over LISTEN/NOTIFY and obeys the parent's messages:
//   { cmd: 'receive', run, count }                  count the run's events as they arrive, report when all did
//   { cmd: 'publish', run, count, bytes, burst, intervalMs }
//       publish `count` events of about `bytes` each: `burst` per turn of the event loop, or one every
//       `intervalMs` when it is set (a paced run, for latency without queueing)
//   { cmd: 'close' }                                close the bus; the process then ends by itself
// Each event carries its publish time from the monotonic clock, which every process on the machine shares.
import { createEventBus } from '../packages/server/src/db/bus/event-bus.ts';
import { createPostgresTransport } from '../packages/server/src/db/bus/postgres-notify.ts';

const TOPIC = 'bench.event';
const databaseUrl = process.argv[2];
const errors = [];
const transport = createPostgresTransport({ databaseUrl, onError: (error) => errors.push(String(error)) });
const bus = createEventBus({ transport, onError: (error) => errors.push(String(error)) });
const nowMicros = () => Number(process.hrtime.bigint() / 1000n);

let receiving = null;

bus.subscribe(TOPIC, (event) => {
  const now = nowMicros();
  const run = receiving;
  if (!run || event.run !== run.run) return;
  run.latencies.push(now - event.t);
  if (event.i !== run.next) run.outOfOrder++;
  run.next = event.i + 1;
  if (run.latencies.length === run.count) {
    receiving = null;
    process.send({ type: 'received', run: run.run, lastAt: now, latencies: run.latencies, outOfOrder: run.outOfOrder });
  }
});

const waitReliable = () =>
  new Promise((resolve) => {
    if (bus.reliable) return resolve();
    const stop = bus.onReset(() => {
      if (!bus.reliable) return;
      stop();
      resolve();
    });
  });

async function publish({ run, count, bytes, burst, intervalMs }) {
  const pad = 'x'.repeat(Math.max(0, bytes - 80));
  const startedAt = nowMicros();
  for (let i = 0; i < count; i++) {
    bus.publish(TOPIC, { run, i, t: nowMicros(), pad });
    if (intervalMs) await new Promise((resolve) => setTimeout(resolve, intervalMs));
    else if ((i + 1) % burst === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  process.send({ type: 'published', run, startedAt });
}

process.on('message', (message) => {
  if (message.cmd === 'receive') {
    receiving = { run: message.run, count: message.count, next: 0, latencies: [], outOfOrder: 0 };
    process.send({ type: 'receiving', run: message.run });
  } else if (message.cmd === 'publish') {
    void publish(message);
  } else if (message.cmd === 'close') {
    void bus.close().then(() => {
      process.send({ type: 'closed', errors });
      process.disconnect();
    });
  }
});

await waitReliable();
process.send({ type: 'ready', nodeId: transport.nodeId });

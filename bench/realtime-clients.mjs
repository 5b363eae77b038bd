// A load process of `npm run bench:realtime` (bench/realtime.mjs): it opens many realtime sockets (vsn 2.0.0, the
// protocol supabase-js speaks) and joins each to one channel with a postgres_changes binding on the items table,
// spread over the nodes given (a filter that matches nothing makes them subscribers that hear nothing). It counts every change message; the first SAMPLE sockets also decode theirs and
// record the latency from the change's commit_timestamp to its receipt (one clock: the same machine). Driven over
// IPC: 'open' → 'ready', 'start' (reset counters), 'stop' → 'stats', 'close' → exit. Bounded: every wait has a
// deadline, and the process exits when its parent goes.
import WebSocket from 'ws';

const OPEN_AT_ONCE = 200;
const JOIN_DEADLINE_MS = 120_000;
const HEARTBEAT_MS = 25_000;

let sockets = [];
let counters = { received: 0, errors: 0 };
let latencies = [];
let measuring = false;

function openOne({ url, apikey, token, table, filter, index, sample }) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(
      `${url.replace(/^http/, 'ws')}/realtime/v1/websocket?apikey=${encodeURIComponent(apikey)}&vsn=2.0.0`,
    );
    // One channel name for all, as the clients of one app have it.
    const topic = 'realtime:items';
    const timer = setTimeout(() => reject(new Error(`socket ${index} did not join in time`)), JOIN_DEADLINE_MS);
    ws.on('open', () => {
      const config = { broadcast: { ack: false, self: false }, presence: { key: '', enabled: false }, private: false };
      config.postgres_changes = [{ event: 'INSERT', schema: 'public', table, ...(filter ? { filter } : {}) }];
      ws.send(JSON.stringify(['1', '1', topic, 'phx_join', { config, access_token: token }]));
    });
    let joined = false;
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      if (!joined) {
        const reply = JSON.parse(data.toString());
        if (reply[3] !== 'phx_reply') return;
        clearTimeout(timer);
        if (reply[4]?.status !== 'ok') return reject(new Error(`join refused: ${JSON.stringify(reply[4])}`));
        joined = true;
        return resolve(ws);
      }
      // Only change messages start with a null join ref.
      if (!measuring || data[1] !== 0x6e) return;
      counters.received++;
      if (!sample) return;
      const text = data.toString();
      const at = text.indexOf('"commit_timestamp":"');
      if (at < 0) return;
      const committed = Date.parse(text.slice(at + 20, text.indexOf('"', at + 20)));
      latencies.push(Date.now() - committed);
    });
    ws.on('error', (error) => {
      counters.errors++;
      clearTimeout(timer);
      reject(error);
    });
  });
}

async function open({ urls, apikey, token, table, filter, count, sample, offset }) {
  for (let start = 0; start < count; start += OPEN_AT_ONCE) {
    const batch = [];
    for (let i = start; i < Math.min(count, start + OPEN_AT_ONCE); i++) {
      const url = urls[i % urls.length];
      batch.push(openOne({ url, apikey, token, table, filter, index: offset + i, sample: i < sample }));
    }
    sockets.push(...(await Promise.all(batch)));
  }
  // Heartbeats as supabase-js sends them, so that no socket is let go as idle.
  let ref = 1;
  setInterval(() => {
    for (const ws of sockets)
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify([null, String(++ref), 'phoenix', 'heartbeat', {}]));
  }, HEARTBEAT_MS).unref();
}

process.on('message', async (message) => {
  try {
    if (message.type === 'open') {
      await open(message);
      process.send({ type: 'ready', sockets: sockets.length });
    } else if (message.type === 'start') {
      counters = { received: 0, errors: 0 };
      latencies = [];
      measuring = true;
    } else if (message.type === 'stop') {
      measuring = false;
      process.send({ type: 'stats', ...counters, latencies });
    } else if (message.type === 'close') {
      for (const ws of sockets) ws.terminate();
      sockets = [];
      process.exit(0);
    }
  } catch (error) {
    process.send({ type: 'failed', message: String(error?.stack ?? error) });
  }
});
process.on('disconnect', () => process.exit(0));

// A load process of `npm run bench:realtime` (bench/realtime.mjs): it opens many realtime sockets (vsn 2.0.0, the
// protocol supabase-js speaks) and joins each to one channel with a postgres_changes binding on the items table,
// spread over the nodes given (a filter that matches nothing makes them subscribers that hear nothing; `{i}` in
// it is replaced by the socket's number, so that each has a filter of its own). It counts every change message;
// the first SAMPLE sockets also record the latency from each change's commit_timestamp to its receipt (one clock:
// the same machine). Driven over IPC: 'open' → 'ready', 'start' (reset counters), 'take' → 'stats' (and reset,
// still counting), 'stop' → 'stats', 'close' → exit. Bounded: every wait has a deadline, and the process exits when its parent goes.
//
// The sockets are raw TCP with a minimal WebSocket client (RFC 6455: masked frames out, unmasked frames in), not
// the `ws` package: this process shares a core with the load generator, and a thousand subscribers receive up to
// 200,000 messages a second; it only walks the frame headers and counts, so what it costs does not decide the
// server's figures (its CPU time is reported beside them).
import { randomBytes } from 'node:crypto';
import net from 'node:net';

const OPEN_AT_ONCE = 200;
const JOIN_DEADLINE_MS = 120_000;
const HEARTBEAT_MS = 25_000;
// `[null,null,"` starts a change message (a heartbeat's reply is `[null,"<ref>",…`, a join's reply `["1","1",…`).
const CHANGE_PREFIX = Buffer.from('[null,null,"');
const COMMIT = Buffer.from('"commit_timestamp":"');

let sockets = [];
let counters = { received: 0, errors: 0 };
let latencies = [];
let measuring = false;

/** maskedFrame is a client's text frame. */
function maskedFrame(text) {
  const payload = Buffer.from(text);
  const length = payload.length;
  const header = length < 126 ? 2 : 4;
  const frame = Buffer.allocUnsafe(header + 4 + length);
  frame[0] = 0x81;
  if (length < 126) frame[1] = 0x80 | length;
  else {
    frame[1] = 0x80 | 126;
    frame.writeUInt16BE(length, 2);
  }
  const mask = randomBytes(4);
  mask.copy(frame, header);
  for (let i = 0; i < length; i++) frame[header + 4 + i] = payload[i] ^ mask[i & 3];
  return frame;
}

function onChange(payload, sample, now) {
  counters.received++;
  if (!sample) return;
  const at = payload.indexOf(COMMIT);
  if (at < 0) return;
  const start = at + COMMIT.length;
  const committed = Date.parse(payload.toString('latin1', start, payload.indexOf(0x22, start)));
  latencies.push(now - committed);
}

function openOne({ url, apikey, token, table, filter, index, sample }) {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const socket = net.connect({ host: hostname, port: Number(port) });
    socket.setNoDelay(true);
    const timer = setTimeout(() => reject(new Error(`socket ${index} did not join in time`)), JOIN_DEADLINE_MS);
    const key = randomBytes(16).toString('base64');
    socket.on('connect', () => {
      const path = `/realtime/v1/websocket?apikey=${encodeURIComponent(apikey)}&vsn=2.0.0`;
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
    });
    let upgraded = false;
    let joined = false;
    let rest = null;
    const join = () => {
      const config = { broadcast: { ack: false, self: false }, presence: { key: '', enabled: false }, private: false };
      const own = filter?.replaceAll('{i}', String(index));
      config.postgres_changes = [{ event: 'INSERT', schema: 'public', table, ...(own ? { filter: own } : {}) }];
      socket.write(
        maskedFrame(JSON.stringify(['1', '1', 'realtime:items', 'phx_join', { config, access_token: token }])),
      );
    };
    const onMessage = (payload, now) => {
      if (joined) {
        if (measuring && payload.subarray(0, CHANGE_PREFIX.length).equals(CHANGE_PREFIX))
          onChange(payload, sample, now);
        return;
      }
      const reply = JSON.parse(payload.toString());
      if (reply[3] !== 'phx_reply') return;
      clearTimeout(timer);
      if (reply[4]?.status !== 'ok') return reject(new Error(`join refused: ${JSON.stringify(reply[4])}`));
      joined = true;
      resolve(socket);
    };
    socket.on('data', (chunk) => {
      const now = Date.now();
      let data = rest ? Buffer.concat([rest, chunk]) : chunk;
      rest = null;
      if (!upgraded) {
        const end = data.indexOf('\r\n\r\n');
        if (end < 0) {
          rest = data;
          return;
        }
        if (!data.subarray(0, 12).toString().includes('101'))
          return reject(new Error(`no upgrade: ${data.toString()}`));
        upgraded = true;
        data = data.subarray(end + 4);
        join();
      }
      let at = 0;
      while (at + 2 <= data.length) {
        let length = data[at + 1] & 0x7f;
        let header = 2;
        if (length === 126) {
          if (at + 4 > data.length) break;
          length = data.readUInt16BE(at + 2);
          header = 4;
        } else if (length === 127) {
          if (at + 10 > data.length) break;
          length = Number(data.readBigUInt64BE(at + 2));
          header = 10;
        }
        if (at + header + length > data.length) break;
        // Text frames only (the server sends changes and replies as text).
        if ((data[at] & 0x0f) === 1) onMessage(data.subarray(at + header, at + header + length), now);
        at += header + length;
      }
      if (at < data.length) rest = data.subarray(at);
    });
    socket.on('error', (error) => {
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
    for (const socket of sockets)
      if (!socket.destroyed)
        socket.write(maskedFrame(JSON.stringify([null, String(++ref), 'phoenix', 'heartbeat', {}])));
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
    } else if (message.type === 'take') {
      process.send({ type: 'stats', ...counters, latencies });
      counters = { received: 0, errors: 0 };
      latencies = [];
    } else if (message.type === 'stop') {
      measuring = false;
      process.send({ type: 'stats', ...counters, latencies });
    } else if (message.type === 'close') {
      for (const socket of sockets) socket.destroy();
      sockets = [];
      process.exit(0);
    }
  } catch (error) {
    process.send({ type: 'failed', message: String(error?.stack ?? error) });
  }
});
process.on('disconnect', () => process.exit(0));

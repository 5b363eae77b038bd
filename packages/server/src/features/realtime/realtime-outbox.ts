import type { Audience, Channel, Connection, Queued } from './realtime-types.js';

// How realtime's frames leave, built for fan-out. A socket write is a system call, and it is the cost that grows
// with the subscribers: a change heard by a thousand sockets is a thousand writes, whatever else is shared. So:
// - frames sent to an audience (realtime-audiences.ts) wait as one list; when they leave, they are joined into one
//   buffer that is written as is to each of its sockets;
// - frames sent to one socket (replies, broadcasts, presence) wait in that socket's list;
// - the outbox leaves after the turn of the event loop that filled it (never inside a request's own turn), in
//   slices of SLICE writes with the event loop free between them, and after a busy flush it lets the server do
//   other work for BREATHE times as long (at most MAX_WAIT_MS) before the next one: under load each write then
//   carries the frames of several changes, the writes per second stay bounded, and requests keep their pace;
//   when the server is idle, frames leave at once.
// Every frame is numbered: a socket whose frames come from several lists (a reply and a change, two channels) gets
// them in the order they were sent, and a channel that joined an audience gets only what was sent after.

const SLICE = 2000;
const BREATHE = 4;
const MAX_WAIT_MS = 20;

/** Outbox gathers frames and writes them out (see above). */
export interface Outbox {
  /** seq is the number of the last frame sent: a channel joining an audience now gets frames after it. */
  readonly seq: number;
  /** toSocket sends a frame to one socket. */
  toSocket(conn: Connection, frame: Buffer): void;
  /** toAudience sends a frame to every channel of an audience (as it is when the frame leaves). */
  toAudience(audience: Audience, frame: Buffer): void;
  /** keep hands a channel that leaves an audience but stays joined the frames sent to it there that wait. */
  keep(channel: Channel, audience: Audience, since: number): void;
}

interface Round {
  audience: Audience;
  frames: Queued[];
  joined: Buffer;
  channels: [Channel, number][];
}

/** createOutbox makes an outbox; `write` writes one socket's frames (or drops them if the socket is gone). */
export function createOutbox(write: (conn: Connection, frames: Buffer[]) => void): Outbox {
  let seq = 0;
  let sockets = new Map<Connection, Queued[]>();
  let audiences = new Set<Audience>();
  let scheduled = false;
  let flushing = false;
  let notBefore = 0;

  const toSocket = (conn: Connection, item: Queued) => {
    const list = sockets.get(conn);
    if (list) list.push(item);
    else sockets.set(conn, [item]);
  };

  function schedule() {
    if (scheduled || flushing) return;
    scheduled = true;
    const wait = notBefore - performance.now();
    if (wait >= 1) setTimeout(flush, wait);
    else setImmediate(flush);
  }

  function flush() {
    scheduled = false;
    flushing = true;
    const rounds: Round[] = [];
    for (const audience of audiences) {
      const frames = audience.pending;
      audience.pending = [];
      if (frames.length === 0) continue;
      const joined = frames.length === 1 ? (frames[0] as Queued).frame : Buffer.concat(frames.map((q) => q.frame));
      rounds.push({ audience, frames, joined, channels: [...audience.channels] });
    }
    audiences = new Set();
    const own = sockets;
    sockets = new Map();
    // Sockets whose frames come from more than one list: merged in order at the end.
    const mixed = new Map<Connection, Queued[]>();
    let busy = 0;
    let r = 0;
    let c = 0;
    const step = () => {
      const started = performance.now();
      let writes = 0;
      while (r < rounds.length && writes < SLICE) {
        const round = rounds[r] as Round;
        const first = (round.frames[0] as Queued).seq;
        while (c < round.channels.length && writes < SLICE) {
          const [channel, since] = round.channels[c++] as [Channel, number];
          const conn = channel.conn;
          // A channel that left (or whose socket closed) since hears nothing more.
          if (conn.closed || conn.channels.get(channel.topic) !== channel) continue;
          if (since < first && conn.channels.size === 1 && !own.has(conn)) {
            write(conn, [round.joined]);
            writes++;
            continue;
          }
          let list = mixed.get(conn);
          if (!list) {
            list = own.get(conn) ?? [];
            own.delete(conn);
            mixed.set(conn, list);
          }
          for (const queued of round.frames) if (queued.seq > since) list.push(queued);
        }
        if (c >= round.channels.length) {
          r++;
          c = 0;
        }
      }
      busy += performance.now() - started;
      if (r < rounds.length) {
        setImmediate(step);
        return;
      }
      const last = performance.now();
      for (const [conn, list] of [...own, ...mixed]) {
        if (list.length > 1) list.sort((a, b) => a.seq - b.seq);
        if (list.length > 0)
          write(
            conn,
            list.map((q) => q.frame),
          );
      }
      const ended = performance.now();
      busy += ended - last;
      flushing = false;
      notBefore = ended + Math.min(MAX_WAIT_MS, busy * BREATHE);
      if (audiences.size > 0 || sockets.size > 0) schedule();
    };
    step();
  }

  return {
    get seq() {
      return seq;
    },
    toSocket(conn, frame) {
      toSocket(conn, { seq: ++seq, frame });
      schedule();
    },
    toAudience(audience, frame) {
      audience.pending.push({ seq: ++seq, frame });
      audiences.add(audience);
      schedule();
    },
    keep(channel, audience, since) {
      let kept = false;
      for (const queued of audience.pending) {
        if (queued.seq <= since) continue;
        toSocket(channel.conn, queued);
        kept = true;
      }
      if (kept) schedule();
    },
  };
}

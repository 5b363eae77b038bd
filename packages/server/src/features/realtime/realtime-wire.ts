// Realtime's way out to its sockets, built for fan-out: a change heard by a thousand sockets is one WebSocket frame
// (RFC 6455: a server's frames are unmasked) written a thousand times, and what reaches one socket during one turn
// of the event loop leaves in one write. A write is a system call, the cost that grows with the subscribers: when
// the server falls behind, more messages wait per socket and each write carries more of them, so the work per
// message drops as the load grows. The frames go straight to the socket under ws (the upgraded request's socket):
// ws writes its own frames (a close, a pong) whole and synchronously, so frames never interleave.

/** Wire is the socket under a WebSocket, as realtime writes to it. */
export interface Wire {
  write(data: Buffer): boolean;
  cork(): void;
  uncork(): void;
  readonly writableLength: number;
  readonly writable: boolean;
}

const FIN = 0x80;
const TEXT = 0x1;
const BINARY = 0x2;

/** wsFrame is one whole, unmasked WebSocket frame carrying `payload` as a text or binary message. */
export function wsFrame(payload: Buffer, binary: boolean): Buffer {
  const length = payload.length;
  const header = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + length);
  frame[0] = FIN | (binary ? BINARY : TEXT);
  if (length < 126) {
    frame[1] = length;
  } else if (length < 65_536) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  payload.copy(frame, header);
  return frame;
}

/** Outbox gathers each socket's frames of one turn of the event loop and writes them together. */
export interface Outbox<C> {
  /** queue adds a frame for a socket; it leaves at the end of this turn (setImmediate). */
  queue(target: C, frame: Buffer): void;
}

/** createOutbox makes the outbox of one hub; `flushTo` writes a socket's frames (or drops them, if it is gone). */
export function createOutbox<C>(flushTo: (target: C, frames: Buffer[]) => void): Outbox<C> {
  let waiting = new Map<C, Buffer[]>();
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    const batch = waiting;
    waiting = new Map();
    for (const [target, frames] of batch) flushTo(target, frames);
  };
  return {
    queue(target, frame) {
      const frames = waiting.get(target);
      if (frames) frames.push(frame);
      else waiting.set(target, [frame]);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
  };
}

/** writeFrames writes frames to a wire in one system call. */
export function writeFrames(wire: Wire, frames: Buffer[]): void {
  if (frames.length === 1) {
    wire.write(frames[0] as Buffer);
    return;
  }
  wire.cork();
  for (const frame of frames) wire.write(frame);
  wire.uncork();
}

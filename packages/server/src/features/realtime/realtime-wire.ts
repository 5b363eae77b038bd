// Realtime's WebSocket frames (RFC 6455: a server's frames are unmasked), built once and written to many sockets
// (realtime-outbox.ts decides when). The frames go straight to the socket under ws (the upgraded request's socket):
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

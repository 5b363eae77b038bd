import { close, read } from 'node:fs';
import { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

// A stored file's bytes, from a descriptor already open. Read by anything else (an image transform, a copy, a
// backup), it is an ordinary stream with a new buffer per read, as fs.createReadStream has. Piped to an HTTP
// response, which is what a download does, it reads into a few buffers the process keeps and reuses each one once
// the socket has written it: every new buffer is memory outside V8's heap, and each 64 MB of it sets off a full
// collection of the server's whole heap (50–200 ms here), one or two for every 100 MB sent.

const CHUNK = 64 * 1024;
/** How many buffers one download may have read and not yet seen written (so at most 256 KB each). */
const IN_FLIGHT = 4;
/** How many free buffers the process keeps for the next downloads (4 MB). */
const KEPT = 64;

const free: Buffer[] = [];
const take = () => free.pop() ?? Buffer.allocUnsafeSlow(CHUNK);
const give = (buffer: Buffer) => {
  if (free.length < KEPT) free.push(buffer);
};

/** FileBody streams bytes start..end (inclusive; end Infinity: to the end of the file) of an open descriptor. */
export class FileBody extends Readable {
  #position: number;
  #reading = false;
  #closeAfterRead: (() => void) | null = null;
  #sending = false;

  constructor(
    private readonly fd: number,
    start: number,
    private readonly end: number,
  ) {
    super({ highWaterMark: CHUNK });
    this.#position = start;
  }

  /** pipe sends to an HTTP response from reused buffers; to anything else it pipes as any stream does. */
  override pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
    if (!(destination instanceof ServerResponse) || this.#sending || this.readableFlowing !== null) {
      return super.pipe(destination, options);
    }
    this.#sending = true;
    this.#send(destination, options?.end !== false);
    return destination;
  }

  override _read(): void {
    const length = Math.min(CHUNK, this.end - this.#position + 1);
    if (length <= 0) {
      this.push(null);
      return;
    }
    const buffer = Buffer.allocUnsafeSlow(length);
    this.#readInto(buffer, length, (bytes) => {
      this.push(bytes === 0 ? null : bytes === length ? buffer : buffer.subarray(0, bytes));
    });
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // A read still running holds the descriptor: closed under it, its number could be another file's by then.
    const closeNow = () => close(this.fd, () => callback(error));
    if (this.#reading) this.#closeAfterRead = closeNow;
    else closeNow();
  }

  /** readInto reads up to length bytes at the position into buffer; done gets how many (0 at the end). */
  #readInto(buffer: Buffer, length: number, done: (bytes: number) => void) {
    this.#reading = true;
    read(this.fd, buffer, 0, length, this.#position, (error, bytes) => {
      this.#reading = false;
      if (this.#closeAfterRead) {
        this.#closeAfterRead();
        return;
      }
      if (this.destroyed) return;
      if (error) {
        this.destroy(error);
        return;
      }
      this.#position += bytes;
      done(bytes);
    });
  }

  #send(response: ServerResponse, end: boolean) {
    let written = 0;
    let waiting = false;
    const finish = () => {
      if (end) response.end();
      // Ends this stream as a read to the end would: 'end', then the descriptor closed.
      this.push(null);
      this.resume();
    };
    const next = () => {
      if (this.destroyed) return;
      const length = Math.min(CHUNK, this.end - this.#position + 1);
      if (length <= 0) {
        finish();
        return;
      }
      if (written >= IN_FLIGHT) {
        waiting = true;
        return;
      }
      const buffer = take();
      this.#readInto(buffer, length, (bytes) => {
        if (bytes === 0) {
          give(buffer);
          finish();
          return;
        }
        written++;
        response.write(bytes === CHUNK ? buffer : buffer.subarray(0, bytes), (error) => {
          written--;
          // A failed write may leave the buffer with the socket until it closes: it is not reused.
          if (!error) give(buffer);
          if (waiting) {
            waiting = false;
            next();
          }
        });
        next();
      });
    };
    next();
  }
}

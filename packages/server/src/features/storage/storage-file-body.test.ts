import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { fstatSync, openSync, statSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileBody } from './storage-file-body.js';

// FileBody on both of its paths: piped to a real HTTP response (reused buffers, several in flight) and read as an
// ordinary stream; whole files, ranges, a file shorter than asked, and a client that hangs up half-way. Each case
// checks the descriptor is closed afterwards.

const SIZE = 5 * 65_536 + 1234;

describe('FileBody', () => {
  let dir: string;
  let file: string;
  let bytes: Buffer;
  let server: http.Server;
  let url: string;
  // What the server's last FileBody was, so a case can wait for its descriptor to close.
  let last: FileBody | null = null;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-file-body-'));
    file = path.join(dir, 'blob');
    bytes = randomBytes(SIZE);
    await fs.writeFile(file, bytes);
    server = http.createServer((request, response) => {
      const [start, end] = (request.url ?? '/').slice(1).split('-');
      last = new FileBody(openSync(file, 'r'), Number(start), end ? Number(end) : Number.POSITIVE_INFINITY);
      last.pipe(response);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    server.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const closedAfter = async (body: FileBody | null) => {
    if (!body) throw new Error('no FileBody was made');
    if (!body.closed) await once(body, 'close');
    // Closed: the number is free (EBADF), or by now another file's, never this one's.
    const fd = (body as unknown as { fd: number }).fd;
    let inode: number | null = null;
    try {
      inode = fstatSync(fd).ino;
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe('EBADF');
    }
    expect(inode).not.toBe(statSync(file).ino);
  };

  it('sends a whole file and ranges of it to an HTTP response, byte for byte', async () => {
    for (const [range, start, end] of [
      ['0-', 0, SIZE - 1],
      ['0-65535', 0, 65_535],
      ['1000-300000', 1000, 300_000],
      [`${SIZE - 10}-${SIZE - 1}`, SIZE - 10, SIZE - 1],
    ] as const) {
      const got = Buffer.from(await (await fetch(`${url}/${range}`)).arrayBuffer());
      expect(got.equals(bytes.subarray(start, end + 1)), range).toBe(true);
      await closedAfter(last);
    }
  });

  it('sends what there is of a file shorter than the range asked', async () => {
    const got = Buffer.from(await (await fetch(`${url}/${SIZE - 100}-${SIZE + 100_000}`)).arrayBuffer());
    expect(got.equals(bytes.subarray(SIZE - 100))).toBe(true);
    await closedAfter(last);
  });

  it('stops reading and closes the file when the client hangs up', async () => {
    const response = await fetch(`${url}/0-`);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await reader.cancel();
    const body = last;
    await closedAfter(body);
    expect(body?.destroyed).toBe(true);
  });

  it('reads as an ordinary stream when piped anywhere else', async () => {
    const body = new FileBody(openSync(file, 'r'), 10, 200_009);
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(bytes.subarray(10, 200_010))).toBe(true);
    await closedAfter(body);
  });

  it('closes the file when destroyed before any read', async () => {
    const body = new FileBody(openSync(file, 'r'), 0, Infinity);
    body.destroy();
    await closedAfter(body);
  });
});

import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { callNode, type ServerProcess, startServerProcess } from '../../testing/server-process.js';

// kill -9 in the middle of an upload: the server restarted on the same data dir has no object, no row and no
// bytes of it; the partial file the cut left is swept once it is older than any request could be.

async function waitFor<T>(probe: () => Promise<T | null>, timeoutMs = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const found = await probe();
    if (found !== null) return found;
    if (Date.now() - started > timeoutMs) throw new Error('not seen in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('an upload cut by kill -9', () => {
  let node: ServerProcess | null = null;
  afterAll(async () => {
    await node?.stop();
  });

  it('leaves no object, no row and, after the sweep, no partial file', async () => {
    node = await startServerProcess();
    const dataDir = node.dataDir;
    const { anonKey } = (await callNode(node.url, 'GET', '/api/config', {})).body;
    const signUp = await callNode(
      node.url,
      'POST',
      '/auth/v1/signup',
      { apikey: anonKey },
      {
        email: 'kill@example.test',
        password: 'Sturdy-Passw0rd!',
      },
    );
    const headers = { apikey: anonKey, authorization: `Bearer ${signUp.body.access_token}` };
    expect((await callNode(node.url, 'POST', '/storage/v1/bucket', headers, { name: 'cut' })).status).toBe(200);

    const { port } = new URL(node.url);
    const request = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/storage/v1/object/cut/half.bin',
      headers: { ...headers, 'content-type': 'application/octet-stream', 'transfer-encoding': 'chunked' },
    });
    request.on('error', () => {});
    request.write(Buffer.alloc(256 * 1024, 7));
    const partials = path.join(dataDir, 'storage', '.partial');
    const partial = await waitFor(async () => {
      const names = await fs.readdir(partials).catch(() => []);
      return names[0] ? path.join(partials, names[0]) : null;
    });
    await node.kill();
    request.destroy();

    // As if the node had stayed down for an hour.
    const anHourAgo = new Date(Date.now() - 3600_000);
    await fs.utimes(partial, anHourAgo, anHourAgo);
    node = await startServerProcess({ BASALT_DATA_DIR: dataDir });
    await waitFor(async () => ((await fs.readdir(partials)).length === 0 ? true : null));
    const signIn = await callNode(
      node.url,
      'POST',
      '/auth/v1/token?grant_type=password',
      { apikey: anonKey },
      {
        email: 'kill@example.test',
        password: 'Sturdy-Passw0rd!',
      },
    );
    const again = { apikey: anonKey, authorization: `Bearer ${signIn.body.access_token}` };
    const listed = await callNode(node.url, 'POST', '/storage/v1/object/list/cut', again, { prefix: '' });
    expect(listed).toMatchObject({ status: 200, body: [] });
    // No bytes either: the account's folder (made before the upload began) holds nothing.
    const stored = await fs.readdir(path.join(dataDir, 'storage'), { recursive: true, withFileTypes: true });
    expect(stored.filter((entry) => entry.isFile()).map((entry) => entry.name)).toEqual([]);
  }, 90_000); // two `basalt serve` starts, on a shared and loaded machine
});

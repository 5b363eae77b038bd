import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, testDialects } from '../testing/test-server.js';

// A path under an API family that nothing serves is a JSON 404 in that family's error shape, never the console's
// page with 200 (which a client would try to parse, or take for success). Pages elsewhere still load the console.

const storageShape = { statusCode: '404', error: 'not_found', message: expect.stringContaining('No route for') };
const consoleShape = { code: 'route_not_found', message: expect.stringContaining('No route for') };
// Realtime answers as Supabase's gateway does: `{message}` alone.
const realtimeShape = { message: expect.stringContaining('No route for') };

const cases: Array<[string, Record<string, unknown>]> = [
  ['/storage/v1/objects/public/avatars/me.png', storageShape],
  ['/storage/v1', storageShape],
  ['/storage/v1/buckets?limit=1', storageShape],
  ['/realtime/v1/socket?vsn=1.0.0', realtimeShape],
  ['/realtime/v1', realtimeShape],
  ['/functions/v1', consoleShape],
  ['/functions/v1/', consoleShape],
  ['/rest/v1', { code: 'PGRST205' }],
  ['/rest/v1/', { code: 'PGRST205' }],
  ['/auth/v1/nothing/here', { code: 404, error_code: 'not_found' }],
  ['/auth/v1', { code: 404, error_code: 'not_found' }],
  ['/api/no/such/route', consoleShape],
];

describe.each(testDialects)('unknown paths of the API families (%s)', (dialect) => {
  let server: TestServer;
  let consoleDir: string;

  beforeAll(async () => {
    consoleDir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-console-'));
    await fs.writeFile(path.join(consoleDir, 'index.html'), '<html><div id="root"></div></html>');
    server = await startTestServer(dialect, { consoleDir });
  });
  afterAll(async () => {
    await server?.close();
    await fs.rm(consoleDir, { recursive: true, force: true });
  });

  it.each(cases)('answers GET %s with a JSON 404 in its family’s shape', async (url, shape) => {
    const res = await server.request('GET', url);
    expect({ status: res.status, type: res.headers.get('content-type') }).toEqual({
      status: 404,
      type: expect.stringContaining('application/json'),
    });
    expect(res.body).toMatchObject(shape);
  });

  it.each([
    ['HEAD', '/storage/v1/object/x'],
    ['POST', '/storage/v1/objects/bucket/file.txt'],
    ['DELETE', '/realtime/v1/api/broadcast'],
    ['PUT', '/functions/v1'],
  ])('answers %s %s with a JSON 404 too', async (method, url) => {
    const res = await server.request(method, url, method === 'POST' ? { json: { a: 1 } } : {});
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
  });

  it('refuses a NUL in a storage path with a 400 in the storage shape', async () => {
    const res = await server.request('GET', '/storage/v1/object/%00');
    expect(res).toMatchObject({ status: 400, body: { statusCode: '400', error: 'validation_failed' } });
  });

  it.each(['/storage', '/functions', '/realtime', '/storage-settings', '/api'])(
    'still serves the console for the page %s',
    async (url) => {
      const res = await server.request('GET', url);
      expect(res.status).toBe(200);
      expect(res.text).toContain('<div id="root">');
    },
  );
});

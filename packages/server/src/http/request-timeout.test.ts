import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { startTestServer, type TestServer, testDialects } from '../testing/test-server.js';

// A client that sends its headers and then only part of the body must not hold its connection (and a parser)
// for ever: REQUEST_TIMEOUT_SECONDS bounds the time to receive a whole request. (A route that wants a caller
// refuses one without credentials before reading the body: sign-in is open to anyone, so its body is read.)

/** sendHalfABody opens a raw socket, sends a request whose body stops halfway, and reports how it ended. */
function sendHalfABody(
  server: TestServer,
  waitMs: number,
): Promise<{ closed: boolean; afterMs: number; text: string }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(Number(port), '127.0.0.1');
    let text = '';
    const giveUp = setTimeout(() => {
      socket.destroy();
      resolve({ closed: false, afterMs: Date.now() - started, text });
    }, waitMs);
    socket.on('data', (chunk) => {
      text += chunk.toString();
    });
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(giveUp);
      resolve({ closed: true, afterMs: Date.now() - started, text });
    });
    socket.write(
      'POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":',
    );
  });
}

describe.each(testDialects)('request timeouts on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, { requestTimeoutSeconds: 1 });
  });
  afterAll(() => server.close());

  it('cuts off a request whose body never finishes, with 408', async () => {
    const result = await sendHalfABody(server, 5000);
    expect(result.closed).toBe(true);
    expect(result.afterMs).toBeGreaterThanOrEqual(900);
    expect(result.text).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('still answers requests that arrive in time', async () => {
    const res = await server.request('GET', '/api/health');
    expect(res.status).toBe(200);
  });
});

describe('REQUEST_TIMEOUT_SECONDS', () => {
  it('defaults to 60 seconds and reads the environment', () => {
    expect(loadConfig({}).requestTimeoutSeconds).toBe(60);
    expect(loadConfig({ REQUEST_TIMEOUT_SECONDS: '5' }).requestTimeoutSeconds).toBe(5);
  });

  it.each(['0', '-1', '1.5', 'soon'])('refuses %s', (value) => {
    expect(() => loadConfig({ REQUEST_TIMEOUT_SECONDS: value })).toThrow(/REQUEST_TIMEOUT_SECONDS/);
  });
});

describe('TRUST_PROXY', () => {
  it.each([
    [undefined, false],
    ['false', false],
    ['true', true],
    ['127.0.0.1, 10.0.0.0/8', ['127.0.0.1', '10.0.0.0/8']],
  ])('reads %j as %j', (value, expected) => {
    expect(loadConfig(value === undefined ? {} : { TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it('refuses what is neither a switch nor addresses', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.example.com' })).toThrow(/TRUST_PROXY/);
  });
});

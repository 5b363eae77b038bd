import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, testDialects } from '../testing/test-server.js';
import { contentSecurityPolicy } from './api-headers.js';

// The console talks only to its own origin: its API calls and, later, its WebSockets (CSP Level 3 lets 'self'
// match ws: and wss: of the same host, in every current browser). Any other host would let injected code send
// what it reads elsewhere.

const directive = (csp: string, name: string) =>
  csp
    .split('; ')
    .find((d) => d.startsWith(`${name} `))
    ?.slice(name.length + 1);

describe('the content security policy', () => {
  it('lets the console connect to its own origin and nowhere else', () => {
    expect(directive(contentSecurityPolicy([]), 'connect-src')).toBe("'self'");
  });
});

describe.each(testDialects)('the console page on %s', (dialect) => {
  let server: TestServer;
  let consoleDir: string;
  beforeAll(async () => {
    consoleDir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-csp-'));
    await fs.writeFile(path.join(consoleDir, 'index.html'), '<html><div id="root"></div></html>');
    server = await startTestServer(dialect, { consoleDir });
  });
  afterAll(async () => {
    await server.close();
    await fs.rm(consoleDir, { recursive: true, force: true });
  });

  it('is served with connect-src limited to its own origin', async () => {
    const page = await server.request('GET', '/tables');
    expect(page.status).toBe(200);
    expect(directive(page.headers.get('content-security-policy') ?? '', 'connect-src')).toBe("'self'");
  });
});

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, testDialects } from './testing/test-server.js';

describe.each(testDialects)('server core on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  it('answers the liveness probe without credentials', async () => {
    const res = await server.request('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
  });

  it('tells the console its anon key and database type', async () => {
    const res = await server.request('GET', '/api/config');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      siteName: 'Basalt',
      anonKey: server.anonKey,
      databaseType: dialect,
      siteUrl: null,
    });
    expect(res.body.anonKey.split('.')).toHaveLength(3);
  });

  it('publishes only public signing keys', async () => {
    const res = await server.request('GET', '/.well-known/jwks.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=600');
    const [key] = res.body.keys;
    expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', key_ops: ['verify'], ext: true });
    expect(key.d).toBeUndefined();
  });

  it.each([
    ['/api/no/such/route', { message: 'No route for GET /api/no/such/route', code: 'route_not_found' }],
    ['/auth/v1/nope', { code: 404, error_code: 'not_found' }],
    ['/rest/v1/', { code: 'PGRST205', details: null, hint: null }],
  ])('answers an unknown API path %s with its family JSON 404', async (url, shape) => {
    const res = await server.request('GET', url);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body).toMatchObject(shape);
  });

  it('sets nosniff and a request id on API answers, and the document headers on pages', async () => {
    const res = await server.request('GET', '/api/health');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-request-id')).toMatch(/[\w-]+/);
    expect(res.headers.get('x-frame-options')).toBeNull();
    expect(res.headers.get('content-security-policy')).toBeNull();
    const page = await server.request('GET', '/settings');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-request-id')).toMatch(/[\w-]+/);
  });

  it('answers CORS preflights with the headers supabase-js needs', async () => {
    const res = await server.request('OPTIONS', '/rest/v1/todos', {
      headers: {
        origin: 'http://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'apikey,prefer',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toContain('prefer');
    const get = await server.request('GET', '/api/health', { headers: { origin: 'http://app.example' } });
    expect(get.headers.get('access-control-expose-headers')).toContain('Content-Range');
  });

  it('sends CORS headers only to a request with an Origin, and says every answer varies by it', async () => {
    for (const path of ['/api/health', '/rest/v1/']) {
      const plain = await server.request('GET', path, { headers: { apikey: server.anonKey } });
      expect(plain.headers.get('access-control-allow-origin')).toBeNull();
      expect(plain.headers.get('access-control-expose-headers')).toBeNull();
      expect(plain.headers.get('vary')).toContain('Origin');
      const browser = await server.request('GET', path, {
        headers: { apikey: server.anonKey, origin: 'http://app.example' },
      });
      expect(browser.status).toBe(plain.status);
      expect(browser.headers.get('access-control-allow-origin')).toBe('*');
      expect(browser.headers.get('vary')).toContain('Origin');
    }
    // OPTIONS is still answered as a preflight: without an Origin it is not a valid one, and says so.
    const options = await server.request('OPTIONS', '/rest/v1/todos', {
      headers: { 'access-control-request-method': 'GET' },
    });
    expect({ status: options.status, text: options.text }).toEqual({ status: 400, text: 'Invalid Preflight Request' });
  });

  it('issues a CSRF token and keeps it stable within the browser session', async () => {
    const first = await server.request('GET', '/api/csrf-token');
    expect(first.status).toBe(200);
    expect(first.body.csrfToken).toMatch(/^[\w-]{32,}$/);
    const cookie = first.headers.get('set-cookie')?.split(';')[0] ?? '';
    expect(first.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    const second = await server.request('GET', '/api/csrf-token', { headers: { cookie } });
    expect(second.body.csrfToken).toBe(first.body.csrfToken);
  });
});

describe('console serving', () => {
  let server: TestServer;
  let consoleDir: string;
  beforeAll(async () => {
    consoleDir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-console-'));
    await fs.mkdir(path.join(consoleDir, 'assets'));
    await fs.writeFile(
      path.join(consoleDir, 'index.html'),
      '<html><script>document.title="x"</script><div id="root"></div></html>',
    );
    await fs.writeFile(path.join(consoleDir, 'assets', 'app-abc.js'), 'console.log(1)');
    server = await startTestServer('sqlite', { consoleDir });
  });
  afterAll(async () => {
    await server.close();
    await fs.rm(consoleDir, { recursive: true, force: true });
  });

  it.each(['/', '/tables', '/tables/42/edit', '/settings', '/api', '/api?tab=keys'])(
    'serves the console for %s (SPA fallback)',
    async (url) => {
      const res = await server.request('GET', url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.text).toContain('<div id="root">');
      expect(res.headers.get('cache-control')).toBe('no-cache');
    },
  );

  it('answers HEAD / for the reconnect probe', async () => {
    const res = await server.request('HEAD', '/');
    expect(res.status).toBe(200);
  });

  it('caches hashed assets for a year', async () => {
    const res = await server.request('GET', '/assets/app-abc.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('immutable');
  });

  it('allows the inline theme script by hash in the CSP of pages, not of API answers', async () => {
    const res = await server.request('GET', '/');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const api = await server.request('GET', '/api/health');
    expect(api.headers.get('content-security-policy')).toBeNull();
  });

  it.each(['/api/no/such/route', '/auth/v1/missing', '/rest/v1/'])('never falls back to HTML for %s', async (url) => {
    const res = await server.request('GET', url);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
  });
});

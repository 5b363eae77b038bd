import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { installErrorHandler } from './error-handler.js';
import { ApiError } from './errors.js';

/** appThatThrows is a bare Fastify app with Basalt's error handler and routes that fail in given ways. */
async function appThatThrows(lines: string[]) {
  const app = Fastify({
    logger: { level: 'error', stream: { write: (line: string) => lines.push(line) } },
    bodyLimit: 1024,
  });
  installErrorHandler(app, 1024);
  app.get('/api/boom', async () => {
    throw new Error('secret internals: password=hunter2 at db.ts:42');
  });
  app.get('/auth/v1/boom', async () => {
    throw new TypeError('cannot read properties of undefined');
  });
  app.get('/api/gone', async () => {
    throw new ApiError(410, 'gone', 'This resource is gone');
  });
  app.post('/api/echo', async (request) => request.body);
  app.post('/rest/v1/echo', async (request) => request.body);
  await app.ready();
  return app;
}

describe('the error handler', () => {
  it('answers an unexpected error with a bare 500, no internals, and one log line', async () => {
    const lines: string[] = [];
    const app = await appThatThrows(lines);
    const res = await app.inject({ method: 'GET', url: '/api/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      message: 'Something went wrong on the server. Please try again.',
      code: 'internal_error',
    });
    expect(res.body).not.toContain('hunter2');
    expect(res.body).not.toContain('db.ts');
    expect(lines.join('')).toContain('unexpected error while handling a request');
    await app.close();
  });

  it('uses the GoTrue envelope for unexpected auth errors', async () => {
    const app = await appThatThrows([]);
    const res = await app.inject({ method: 'GET', url: '/auth/v1/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      code: 500,
      error_code: 'unexpected_failure',
      msg: 'Unexpected failure, please check server logs for more information',
    });
    await app.close();
  });

  it('passes an ApiError through with its status and code', async () => {
    const app = await appThatThrows([]);
    const res = await app.inject({ method: 'GET', url: '/api/gone' });
    expect(res.statusCode).toBe(410);
    expect(res.json()).toEqual({ message: 'This resource is gone', code: 'gone' });
    await app.close();
  });

  it.each([
    ['/api/echo', { message: 'The request body is not valid JSON', code: 'bad_json' }],
    ['/rest/v1/echo', { code: 'PGRST102', message: 'Empty or invalid json', details: null, hint: null }],
  ])('answers malformed JSON on %s with its family 400', async (url, body) => {
    const app = await appThatThrows([]);
    const res = await app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json' },
      payload: '{"a":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(body);
    await app.close();
  });

  it('answers an oversized body with 413 and the limit in words', async () => {
    const app = await appThatThrows([]);
    const res = await app.inject({
      method: 'POST',
      url: '/api/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ text: 'x'.repeat(4096) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      message: 'The request body is larger than the 1 KiB this server accepts.',
      code: 'payload_too_large',
    });
    await app.close();
  });

  it('answers a body that is not JSON with 415 and what to send instead', async () => {
    const app = await appThatThrows([]);
    const res = await app.inject({
      method: 'POST',
      url: '/api/echo',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toContain('Content-Type: application/json');
    await app.close();
  });
});

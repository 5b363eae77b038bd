import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, testDialects } from '../testing/test-server.js';

// Requests the API fuzz test (api-fuzz.test.ts) once answered with a 5xx, kept as plain scenarios so that each
// stays fixed whatever the fuzz test's seed reaches: the status a client gets now, on both engines (the NUL guard
// answers these first; the stores below it refuse such text too).

interface Finding {
  name: string;
  method: string;
  path: string;
  json: unknown;
  status: number;
}

const findings: Finding[] = [
  {
    name: 'a NUL in the email of a verification (the rate-limit key and the token lookup)',
    method: 'POST',
    path: '/auth/v1/verify',
    json: { type: 'signup', email: 'a\u0000@example.com', token: '123456' },
    status: 400,
  },
  {
    name: 'a NUL alone as the email of a verification',
    method: 'POST',
    path: '/auth/v1/verify',
    json: { type: 'recovery', email: '\u0000', token: '000000' },
    status: 400,
  },
  {
    name: 'an address that is no email address, on a verification (GoTrue: 400)',
    method: 'POST',
    path: '/auth/v1/verify',
    json: { type: 'signup', email: 'not an address', token: '123456' },
    status: 400,
  },
];

describe.each(testDialects)('fuzz findings on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  it.each(findings)('$name', async ({ method, path, json, status }) => {
    const headers = { apikey: server.anonKey, authorization: `Bearer ${server.anonKey}` };
    const res = await server.request(method, path, { headers, json });
    expect({ status: res.status, body: res.body }).toMatchObject({ status });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callNode, type ServerProcess, startServerProcess } from '../../testing/server-process.js';
import { createTestDatabase, startTestServer, type TestServer } from '../../testing/test-server.js';

// Two Basalt nodes on one PostgreSQL count one account's requests as one: node A is a `basalt serve` process of
// its own, node B a server in this process. Both are loaded at once; once A has stopped (storing what it
// counted) and B has flushed, the metrics hold every request exactly once, by the minute and by the hour.

const PER_NODE = 300;
const CONCURRENCY = 16;

describe.skipIf(!process.env.TEST_DATABASE_URL)('request metrics on two nodes of one PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let a: ServerProcess | null = null;
  let b: TestServer;
  let headers: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase();
    a = await startServerProcess({ DATABASE_URL: database.url, AUTH_RATE_LIMIT: '1000' });
    b = await startTestServer('postgres', { databaseUrl: database.url, authRateLimit: 1000 });
    const anonKey = (await callNode(b.url, 'GET', '/api/config', {})).body.anonKey;
    const email = `metrics-${Date.now()}@example.test`;
    const res = await callNode(
      b.url,
      'POST',
      '/auth/v1/signup',
      { apikey: anonKey },
      { email, password: 'Sturdy-Passw0rd!' },
    );
    expect(res.status).toBe(200);
    headers = { apikey: anonKey, authorization: `Bearer ${res.body.access_token}` };
  }, 60_000);

  afterAll(async () => {
    await b?.close();
    await a?.stop();
    await database?.drop();
  });

  async function load(base: string, count: number): Promise<number[]> {
    const statuses: number[] = [];
    let next = 0;
    const worker = async () => {
      while (next < count) {
        next++;
        // Every fifth request asks for a page that is not a number: a 400 of the same route.
        const query = next % 5 === 0 ? '?page=x' : '';
        statuses.push((await callNode(base, 'GET', `/api/activity${query}`, headers)).status);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    return statuses;
  }

  it('adds up every request once, whichever node answered it', async () => {
    const nodeA = a as ServerProcess;
    const [onA, onB] = await Promise.all([load(nodeA.url, PER_NODE), load(b.url, PER_NODE)]);
    const refused = [...onA, ...onB].filter((s) => s === 400).length;
    expect(onA.length + onB.length).toBe(2 * PER_NODE);
    expect(refused).toBeGreaterThan(0);
    // A stops gracefully: its last counts are stored as it closes. B stores its own now.
    await nodeA.stop();
    a = null;
    await b.app.basalt.monitoring.flush();
    const from = new Date(Date.now() - 3 * 3600_000).toISOString();
    const route = encodeURIComponent('GET /api/activity');
    for (const bucket of ['1m', '1h']) {
      const res = await callNode(b.url, 'GET', `/api/metrics?from=${from}&bucket=${bucket}&route=${route}`, headers);
      expect(res.status).toBe(200);
      expect(res.body.totals, bucket).toMatchObject({ requests: 2 * PER_NODE, errors4xx: refused, errors5xx: 0 });
    }
  }, 120_000);
});

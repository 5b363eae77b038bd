import { expect } from 'vitest';
import { callNode, type ServerProcess, startServerProcess } from './server-process.js';
import { createTestDatabase } from './test-server.js';

// Several `basalt serve` processes on one fresh PostgreSQL database, as the suites that check that nodes behave as
// one start them: one site for all (a token's issuer is the site, so every node takes the others' tokens).

/** Cluster is the nodes on one database, and how to stop them and drop it. */
export interface Cluster {
  nodes: ServerProcess[];
  databaseUrl: string;
  stop(): Promise<void>;
}

/** startCluster starts `count` nodes on a new database, each with `env` besides the shared ones. */
export async function startCluster(count = 2, env: Record<string, string> = {}): Promise<Cluster> {
  const database = await createTestDatabase();
  const nodes = await Promise.all(
    Array.from({ length: count }, () =>
      startServerProcess({
        DATABASE_URL: database.url,
        AUTH_RATE_LIMIT: '1000',
        SITE_URL: 'http://basalt.cluster.test',
        ...env,
      }),
    ),
  );
  return {
    nodes,
    databaseUrl: database.url,
    async stop() {
      await Promise.all(nodes.map((node) => node.stop()));
      await database.drop();
    },
  };
}

/** signedUpHeaders signs a new account up through /auth/v1 on a node: its apikey and bearer headers. */
export async function signedUpHeaders(node: ServerProcess, label: string): Promise<Record<string, string>> {
  const anonKey = (await callNode(node.url, 'GET', '/api/config', {})).body.anonKey;
  const signUp = await callNode(
    node.url,
    'POST',
    '/auth/v1/signup',
    { apikey: anonKey },
    { email: `${label}-${Date.now()}@example.test`, password: 'Sturdy-Passw0rd!' },
  );
  expect(signUp.status).toBe(200);
  return { apikey: anonKey, authorization: `Bearer ${signUp.body.access_token}` };
}

/** registeredHeaders registers a console account on a node: its bearer header. */
export async function registeredHeaders(node: ServerProcess, username: string): Promise<Record<string, string>> {
  const registered = await callNode(
    node.url,
    'POST',
    '/api/auth/register',
    {},
    { username, email: `${username}-${Date.now()}@example.test`, password: 'Sturdy-Passw0rd!' },
  );
  expect(registered.status).toBe(201);
  return { authorization: `Bearer ${registered.body.session.access_token}` };
}

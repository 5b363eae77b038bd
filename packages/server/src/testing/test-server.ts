import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../app.js';
import { type Config, loadConfig } from '../config.js';
import { type Db, openDatabase } from '../db/database.js';
import type { DialectName } from '../db/dialect/dialect.js';

/** testDialects are the engines every API suite runs on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const testDialects: DialectName[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

/** TestServer is a real Basalt server listening on 127.0.0.1 with its own fresh database. */
export interface TestServer {
  url: string;
  app: FastifyInstance;
  config: Config;
  anonKey: string;
  serviceKey: string;
  /** request sends a real HTTP request to the server. */
  request(method: string, pathAndQuery: string, init?: TestRequestInit): Promise<TestResponse>;
  close(): Promise<void>;
}

/** TestRequestInit describes one request: a JSON body (or raw text) and headers. */
export interface TestRequestInit {
  headers?: Record<string, string>;
  json?: unknown;
  body?: string;
}

/** TestResponse is a response with its body read and, where it is JSON, parsed. */
export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests assert on arbitrary JSON shapes.
  body: any;
}

/**
 * openTestDb opens an empty, unmigrated database on `dialect` (a fresh data directory; on PostgreSQL a fresh
 * database), for suites that run migrations themselves; close() closes and removes it.
 */
export async function openTestDb(dialect: DialectName): Promise<{ db: Db; close(): Promise<void> }> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-db-'));
  const database = dialect === 'postgres' ? await createTestDatabase() : null;
  const db = openDatabase({ databaseUrl: database?.url ?? null, dataDir });
  return {
    db,
    async close() {
      await db.close();
      await database?.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** createTestDatabase makes an empty PostgreSQL database and returns its URL and a dropper. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `basalt_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        // The pool closes its connections asynchronously; a forced drop under them makes pg report
        // "terminating connection" as an unhandled error, so wait for them to go first.
        for (let i = 0; i < 100; i++) {
          const { rows } = await client.query<{ n: number }>(
            'select count(*)::int as n from pg_stat_activity where datname = $1',
            [name],
          );
          if (!rows[0]?.n) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** freePort asks the OS for a port no one listens on, so the server's SITE_URL can name it before it starts. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        address && typeof address !== 'string' ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * startTestServer starts Basalt on a fresh database of the given engine, or on the PostgreSQL database that
 * `overrides.databaseUrl` names (another node of a cluster; that database is not dropped on close).
 */
export async function startTestServer(dialect: DialectName, overrides: Partial<Config> = {}): Promise<TestServer> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-test-'));
  const database = dialect === 'postgres' && !overrides.databaseUrl ? await createTestDatabase() : null;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config: Config = {
    ...loadConfig({ LOG_LEVEL: 'silent' }),
    port,
    siteUrl: url,
    dataDir,
    databaseUrl: database?.url ?? null,
    consoleDir: null,
    ...overrides,
  };
  const app = await buildApp(config);
  await app.listen({ port, host: '127.0.0.1' });
  const server: TestServer = {
    url,
    app,
    config,
    anonKey: app.basalt.tokens.anonKey,
    serviceKey: app.basalt.tokens.serviceKey,
    async request(method, pathAndQuery, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      let body: string | undefined = init.body;
      if (init.json !== undefined) {
        body = JSON.stringify(init.json);
        headers['content-type'] ??= 'application/json';
      }
      const res = await fetch(url + pathAndQuery, { method, headers, body });
      const text = await res.text();
      let parsed: unknown = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = null;
      }
      return { status: res.status, headers: res.headers, text, body: parsed };
    },
    async close() {
      await app.close();
      await database?.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}

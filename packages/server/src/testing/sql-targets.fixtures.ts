import { randomBytes } from 'node:crypto';
import net from 'node:net';
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { TargetEndpoint } from '../features/sql/sql-target.js';

// Target databases for the SQL execution tests: a fresh database on the local PostgreSQL and MariaDB of the
// development machines and CI (TEST_DATABASE_URL's server, else 127.0.0.1:5432; TEST_MYSQL_URL, else root at
// 127.0.0.1:3306), dropped at the end.

/** TestTarget is a database created for one suite. */
export interface TestTarget {
  endpoint: TargetEndpoint;
  /** query runs SQL on it directly (not through Basalt) and returns the rows. */
  query<R = Record<string, unknown>>(sql: string): Promise<R[]>;
  drop(): Promise<void>;
}

const pgAdminUrl = () => process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const mysqlAdminUrl = () => process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';

/** createPostgresTarget makes an empty PostgreSQL database. */
export async function createPostgresTarget(): Promise<TestTarget> {
  const name = `basalt_target_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgAdminUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(pgAdminUrl());
  const endpoint: TargetEndpoint = {
    engine: 'POSTGRESQL',
    host: url.hostname,
    port: Number(url.port || 5432),
    database: name,
    user: decodeURIComponent(url.username) || 'postgres',
    password: url.password ? decodeURIComponent(url.password) : null,
    ssl: false,
  };
  const client = new pg.Client({
    ...endpoint,
    database: name,
    user: endpoint.user ?? undefined,
    password: endpoint.password ?? undefined,
  });
  await client.connect();
  return {
    endpoint,
    async query<R>(sql: string) {
      return (await client.query(sql)).rows as R[];
    },
    async drop() {
      await client.end();
      const dropper = new pg.Client({ connectionString: pgAdminUrl() });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

/** createMysqlTarget makes an empty MariaDB/MySQL database. */
export async function createMysqlTarget(): Promise<TestTarget> {
  const name = `basalt_target_${randomBytes(5).toString('hex')}`;
  const url = new URL(mysqlAdminUrl());
  const endpoint: TargetEndpoint = {
    engine: 'MYSQL',
    host: url.hostname,
    port: Number(url.port || 3306),
    database: name,
    user: decodeURIComponent(url.username) || 'root',
    password: url.password ? decodeURIComponent(url.password) : null,
    ssl: false,
  };
  const admin = await mysql.createConnection({
    host: endpoint.host,
    port: endpoint.port,
    user: endpoint.user ?? undefined,
    password: endpoint.password ?? undefined,
  });
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.query(`USE ${name}`);
  return {
    endpoint,
    async query<R>(sql: string) {
      const [rows] = await admin.query(sql);
      return rows as R[];
    },
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.end();
    },
  };
}

/** blackHole listens on 127.0.0.1 and accepts connections without ever answering: a host that hangs. */
export async function blackHole(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = address && typeof address !== 'string' ? address.port : 0;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

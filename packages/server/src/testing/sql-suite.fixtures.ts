import type { DialectName } from '../db/dialect/dialect.js';
import { bearer } from './account.fixtures.js';
import { type SignedInTestUser, signUpUser, startAuthServer, users } from './auth.fixtures.js';
import { createTestProject } from './sql.fixtures.js';
import { createMysqlTarget, createPostgresTarget, type TestTarget } from './sql-targets.fixtures.js';
import type { TestServer } from './test-server.js';

// The cast of the SQL Execution API suites: a server on one of Basalt's engines, a PostgreSQL and a MariaDB
// target, a project with its owner, a DEVELOPER and a VIEWER, and a stranger with a project of their own.

/** SqlSuite is what an SQL Execution API suite starts with. */
export interface SqlSuite {
  server: TestServer;
  pgTarget: TestTarget;
  mysqlTarget: TestTarget;
  /** alice owns the project (and, as the first account, administers the instance). */
  alice: SignedInTestUser;
  /** bob is a DEVELOPER of the project. */
  bob: SignedInTestUser;
  /** carol is a VIEWER of the project. */
  carol: SignedInTestUser;
  /** mallory owns another project only. */
  mallory: SignedInTestUser;
  project: string;
  malloryProject: string;
  /** pgConnection is the project's connection to pgTarget; malloryConnection mallory's. */
  pgConnection: number;
  malloryConnection: number;
  close(): Promise<void>;
}

/** targetUrl is a target's postgres:// URL. */
export function targetUrl(target: TestTarget): string {
  const e = target.endpoint;
  return `postgres://${e.user}${e.password ? `:${e.password}` : ''}@${e.host}:${e.port}/${e.database}`;
}

/** startSqlSuite starts the server and the targets and makes the users, projects and connections. */
export async function startSqlSuite(dialect: DialectName): Promise<SqlSuite> {
  const server = await startAuthServer(dialect);
  const [pgTarget, mysqlTarget] = await Promise.all([createPostgresTarget(), createMysqlTarget()]);
  const alice = await signUpUser(server, users.alice);
  const bob = await signUpUser(server, users.bob);
  const carol = await signUpUser(server, users.carol);
  const mallory = await signUpUser(server, users.mallory);
  const project = await createTestProject(server, alice.id, [
    { accountId: bob.id, role: 'DEVELOPER' },
    { accountId: carol.id, role: 'VIEWER' },
  ]);
  const malloryProject = await createTestProject(server, mallory.id);
  // The suites register more connections than the free plan allows: their accounts are on a plan without a cap,
  // assigned by alice as the instance's administrator (the cap itself: features/billing).
  for (const user of [alice, bob, carol, mallory]) {
    const assigned = await server.request('PUT', `/api/billing/accounts/${user.id}/plan`, {
      headers: bearer(alice),
      json: { planId: 'enterprise' },
    });
    if (assigned.status !== 200) throw new Error(`could not assign a plan: ${assigned.text}`);
  }
  const created = await server.request('POST', `/api/projects/${project}/database-connections`, {
    headers: bearer(bob),
    json: { name: 'Target PG', provider: 'CUSTOM', engine: 'POSTGRESQL', connectionString: targetUrl(pgTarget) },
  });
  const theirs = await server.request('POST', `/api/projects/${malloryProject}/database-connections`, {
    headers: bearer(mallory),
    json: { name: 'Mallory PG', provider: 'NEON', engine: 'POSTGRESQL', connectionString: targetUrl(pgTarget) },
  });
  return {
    server,
    pgTarget,
    mysqlTarget,
    alice,
    bob,
    carol,
    mallory,
    project,
    malloryProject,
    pgConnection: created.body.id,
    malloryConnection: theirs.body.id,
    async close() {
      await server.close();
      await Promise.all([pgTarget.drop(), mysqlTarget.drop()]);
    },
  };
}

/** uploadSql uploads a file as a user through the multipart endpoint; returns the status and parsed body. */
export async function uploadSql(
  server: TestServer,
  user: SignedInTestUser,
  projectId: string,
  name: string,
  content: string | Buffer,
): Promise<{ status: number; body: { id: number; projectId: string } & Record<string, unknown> }> {
  const form = new FormData();
  form.set('projectId', projectId);
  form.set('description', 'a migration');
  form.set('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), name);
  const res = await fetch(`${server.url}/api/projects/${projectId}/files/upload`, {
    method: 'POST',
    headers: bearer(user),
    body: form,
  });
  return { status: res.status, body: await res.json() };
}

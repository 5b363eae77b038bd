import type { ProjectRole } from '@basalt/shared';
import { expect } from 'vitest';
import { signIn } from './tables.fixtures.js';
import type { TestServer } from './test-server.js';

// Named accounts with usernames for the projects suites, and helpers that build a project with members and a
// linked table through the API itself.

/** Member is a signed-in account with a username and the headers of its requests. */
export interface Member {
  accountId: string;
  email: string;
  username: string;
  token: string;
  headers: Record<string, string>;
}

/** signInMember creates an account named `username` on the server and signs an access token for it. */
export async function signInMember(server: TestServer, username: string): Promise<Member> {
  const account = await signIn(server, 'alice');
  await server.app.basalt.db.kysely
    .updateTable('accounts')
    .set({ username, username_key: username.toLowerCase() })
    .where('id', '=', account.accountId)
    .execute();
  const token = (account.headers.authorization ?? '').slice('Bearer '.length);
  return { accountId: account.accountId, email: account.email, username, token, headers: account.headers };
}

/** createProject creates a project as `owner` and returns its id. */
export async function createProjectAs(server: TestServer, owner: Member, name = 'Team space'): Promise<string> {
  const res = await server.request('POST', '/api/projects', { headers: owner.headers, json: { name } });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

/** addMemberAs invites `member` into a project with a role, as `by`. */
export async function addMemberAs(
  server: TestServer,
  by: Member,
  projectId: string,
  member: Member,
  role: ProjectRole,
): Promise<void> {
  const res = await server.request('POST', `/api/projects/${projectId}/members`, {
    headers: by.headers,
    json: { email: member.email, role },
  });
  expect(res.status, res.text).toBe(201);
}

/** createTableAs creates a table `name` with a text column `title` as `owner` and returns its id. */
export async function createTableAs(server: TestServer, owner: Member, name: string): Promise<number> {
  const res = await server.request('POST', '/api/tables', {
    headers: owner.headers,
    json: { name, schema: { title: { type: 'text', required: false, unique: false } } },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

/** linkTableAs links a table to a project as `by`. */
export async function linkTableAs(server: TestServer, by: Member, projectId: string, tableId: number): Promise<void> {
  const res = await server.request('POST', `/api/projects/${projectId}/tables/${tableId}`, { headers: by.headers });
  expect(res.status, res.text).toBe(201);
}

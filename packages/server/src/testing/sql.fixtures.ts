import { findAccount } from '../features/auth/users/accounts.service.js';
import { addMember } from '../features/projects/project-members.service.js';
import { createProject } from '../features/projects/projects.service.js';
import { accountActor, type ProjectRole } from '../lib/actor/actor.js';
import type { TestServer } from './test-server.js';

// Projects for the SQL Execution suites, made through the projects service as the owner would: the project, then
// each member with its role.

/** createTestProject makes a project owned by `ownerId`, with other members and their roles; returns its id. */
export async function createTestProject(
  server: Pick<TestServer, 'app'>,
  ownerId: string,
  members: Array<{ accountId: string; role: ProjectRole }> = [],
): Promise<string> {
  const db = server.app.basalt.db;
  const owner = accountActor(ownerId);
  const project = await createProject(db, owner, { name: 'Test project', description: 'SQL Execution tests' });
  for (const member of members) {
    const account = await findAccount(db.kysely, member.accountId);
    if (!account) throw new Error(`no account ${member.accountId}`);
    await addMember(db, owner, project.id, { email: account.email, role: member.role });
  }
  return project.id;
}

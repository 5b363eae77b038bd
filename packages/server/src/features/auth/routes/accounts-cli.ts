import { emailSchema, passwordSchema } from '@basalt/shared';
import type { Db } from '../../../db/database.js';
import { writeInstanceSettings } from '../../instance/instance-settings.js';
import { deleteSessionsOfAccount } from '../sessions/sessions.store.js';
import { findAccountWithEmail, updateAccount, usernameOf } from '../users/accounts.service.js';
import { listAccountsPage } from '../users/accounts.store.js';
import { hashPassword } from '../users/passwords.js';
import { CONSOLE_TABLES } from '../users/user-pool.js';
import type { CliOutput } from './admin-cli.js';
import '../users/session-events.js';

// The operator's commands for console accounts, for when nobody can sign in to the console (or should not):
//   basalt accounts                                   every account: email, username, administrator, confirmed
//   basalt reset-password --email a@b.c --password …  a new password; every session of the account ends
//   basalt signups open|close                         console sign-ups, as Settings → Instance sets them

const PAGE = 500;

/** listAccountsFromCli prints every console account, newest first. Returns the exit code. */
export async function listAccountsFromCli(db: Db, out: CliOutput = console): Promise<number> {
  let count = 0;
  for (let offset = 0; ; offset += PAGE) {
    const rows = await listAccountsPage(db.kysely, { limit: PAGE, offset });
    for (const row of rows) {
      const flags = [row.is_admin ? 'admin' : '', row.email_confirmed_at ? '' : 'unconfirmed'].filter(Boolean);
      out.log(`${row.email}\t${usernameOf(row)}\t${row.created_at}${flags.length ? `\t${flags.join(',')}` : ''}`);
    }
    count += rows.length;
    if (rows.length < PAGE) break;
  }
  out.log(`${count} account${count === 1 ? '' : 's'}.`);
  return 0;
}

/** resetPasswordFromCli sets an account's password (the console's rules) and ends its sessions everywhere. */
export async function resetPasswordFromCli(
  db: Db,
  values: { email?: string; password?: string },
  out: CliOutput = console,
): Promise<number> {
  const email = emailSchema.safeParse(values.email ?? '');
  if (!email.success) return fail(out, 'reset-password', '--email: a valid email address is required');
  const password = passwordSchema.safeParse(values.password ?? '');
  if (!password.success) {
    return fail(out, 'reset-password', `--password: ${password.error.issues.map((i) => i.message).join('; ')}`);
  }
  const account = await findAccountWithEmail(db.kysely, email.data.toLowerCase());
  if (!account) return fail(out, 'reset-password', `no account has the email ${email.data}`);
  const passwordHash = await hashPassword(password.data);
  const ended = await db.transaction(async (scope) => {
    await updateAccount(scope.kysely, account.id, { password_hash: passwordHash });
    const count = await deleteSessionsOfAccount(scope.kysely, CONSOLE_TABLES, account.id);
    // Running servers refuse the ended sessions' tokens once this commits.
    if (count > 0) scope.publish('sessions.ended', { accountId: account.id });
    return count;
  });
  out.log(`Set a new password for ${account.email}; ${ended} session${ended === 1 ? '' : 's'} ended.`);
  return 0;
}

/** signupsFromCli opens or closes console sign-ups. */
export async function signupsFromCli(db: Db, action: string | undefined, out: CliOutput = console): Promise<number> {
  if (action !== 'open' && action !== 'close') return fail(out, 'signups', 'say "open" or "close"');
  const settings = await writeInstanceSettings(db, { signupsAllowed: action === 'open' });
  out.log(settings.signupsAllowed ? 'Console sign-ups are open.' : 'Console sign-ups are closed.');
  return 0;
}

function fail(out: CliOutput, command: string, message: string): number {
  out.error(`${command}: ${message}`);
  return 1;
}

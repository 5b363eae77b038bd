import { emailSchema, passwordSchema, usernameSchema } from '@basalt/shared';
import type { z } from 'zod';
import type { Config } from '../../../config.js';
import type { Db } from '../../../db/database.js';
import { registerEmailUser } from '../signup/user-creation.service.js';
import { findAccountWithEmail, UniqueViolation, updateAccount, usernameOf } from '../users/accounts.service.js';
import { consoleUsers } from '../users/console-pool.js';
import { hashPassword } from '../users/passwords.js';

/** CliOutput is where the command writes; tests pass their own. */
export interface CliOutput {
  log(line: string): void;
  error(line: string): void;
}

function check<S extends z.ZodType>(schema: S, value: unknown, flag: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new CliInputError(`${flag}: ${result.error.issues.map((i) => i.message).join('; ')}`);
}

class CliInputError extends Error {}

/**
 * createAdminFromCli is `basalt create-admin --email --password [--username]`: it creates a confirmed
 * instance administrator with the shared registration rules, or promotes the existing account with that
 * email (nothing else about it changes, and --password is then not needed). Returns the exit code.
 */
export async function createAdminFromCli(
  db: Db,
  _config: Config,
  values: { email?: string; password?: string; username?: string },
  out: CliOutput = console,
): Promise<number> {
  try {
    if (!values.email) throw new CliInputError('--email is required');
    const email = check(emailSchema, values.email, '--email').toLowerCase();
    const existing = await findAccountWithEmail(db.kysely, email);
    if (existing) {
      if (existing.is_admin) {
        out.log(`${email} is already an administrator.`);
        return 0;
      }
      await updateAccount(db.kysely, existing.id, { is_admin: 1 });
      out.log(`Promoted ${email} (username ${usernameOf(existing)}) to administrator; nothing else was changed.`);
      return 0;
    }
    if (!values.password) throw new CliInputError('--password is required to create a new administrator');
    const password = check(passwordSchema, values.password, '--password');
    const username = values.username === undefined ? undefined : check(usernameSchema, values.username, '--username');
    const passwordHash = await hashPassword(password);
    // Made as a confirmed sign-up is (the same rows), then made an administrator.
    const account = await db.transaction(async (scope) => {
      const now = new Date();
      const user = await registerEmailUser(
        { pool: consoleUsers },
        scope,
        { email, passwordHash, userMetadata: username ? { username } : {}, confirmed: true },
        now,
      );
      return (await updateAccount(scope.kysely, user.id, { is_admin: 1 }, now)) ?? user;
    });
    out.log(`Created administrator ${account.email} (username ${usernameOf(account)}).`);
    return 0;
  } catch (error) {
    if (error instanceof CliInputError) {
      out.error(`create-admin: ${error.message}`);
      return 1;
    }
    if (error instanceof UniqueViolation) {
      out.error(`create-admin: that ${error.column} is already taken by another account`);
      return 1;
    }
    throw error;
  }
}

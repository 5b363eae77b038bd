import fs from 'node:fs';
import type { Db } from '../../db/database.js';
import { accountActor } from '../../lib/actor/actor.js';
import type { CliOutput } from '../auth/routes/admin-cli.js';
import { findAccountIdByUsernameKey } from '../auth/users/accounts.store.js';
import { describeSqlFunctions } from '../sql-functions/sql-functions.service.js';
import { listTables } from '../tables/tables.service.js';
import { buildTypeScriptTypes } from './typescript-types.js';

/**
 * genTypesFromCli is `basalt gen types --app <username> [--out <file>]`: the supabase-js `Database` type of that
 * account's tables (what `GET /api/types.ts` answers and `supabase gen types typescript` writes), printed, or
 * written to a file. Returns the exit code: 2 without `types` or `--app`, 1 for an unknown username.
 */
export async function genTypesFromCli(
  db: Db,
  what: string | undefined,
  options: { app?: string; out?: string },
  output: CliOutput = console,
): Promise<number> {
  if (what !== 'types' || options.app === undefined) {
    output.error('Usage: basalt gen types --app <username> [--out <file>]');
    return 2;
  }
  const accountId = await findAccountIdByUsernameKey(db.kysely, options.app.trim().toLowerCase());
  if (!accountId) {
    output.error(`No account has the username "${options.app}".`);
    return 1;
  }
  const actor = accountActor(accountId);
  const text = buildTypeScriptTypes(await listTables(db, actor), await describeSqlFunctions(db, actor));
  if (options.out === undefined) output.log(text);
  else {
    fs.writeFileSync(options.out, text);
    output.error(`Wrote ${options.out}.`);
  }
  return 0;
}

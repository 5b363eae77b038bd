import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * functionRoutesPerAccountMigration gives each account its own space of function routes: a route is unique per
 * account instead of on the whole instance, so two accounts may both deploy `/api/edge/my-function` (the caller's
 * key or token says whose it is). The route alone stays indexed for calls that name no account.
 */
export function functionRoutesPerAccountMigration(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
    async up(db: Kysely<any>) {
      await db.schema.dropIndex('edge_functions_route_key').execute();
      await db.schema
        .createIndex('edge_functions_account_route_key')
        .on('edge_functions')
        .columns(['account_id', 'route'])
        .unique()
        .execute();
      await db.schema.createIndex('edge_functions_route_idx').on('edge_functions').column('route').execute();
    },
  };
}

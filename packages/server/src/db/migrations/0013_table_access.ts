import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * tableAccessMigration adds the access rules of a table (JSON of {select, insert, update, delete, ownerColumn};
 * NULL is the default, nobody but the owner). They belong to the definition: cached, versioned and recorded in
 * history with it.
 */
export function tableAccessMigration(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
    async up(db: Kysely<any>) {
      await db.schema.alterTable('user_tables').addColumn('access', 'text').execute();
    },
  };
}

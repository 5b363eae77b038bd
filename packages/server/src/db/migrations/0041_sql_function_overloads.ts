import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * sqlFunctionOverloadsMigration lets an account define several SQL functions of one name (overloads, told apart by
 * their parameters' names, as PostgREST picks them): `signature` is the sorted parameter names, unique per account
 * and name instead of the name alone; and `mode` says whether the statement reads or writes (GET calls only reads).
 */
export function sqlFunctionOverloadsMigration(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('sql_functions')
        .addColumn('signature', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .alterTable('sql_functions')
        .addColumn('mode', 'text', (c) => c.notNull().defaultTo('read'))
        .execute();
      const rows: Array<{ id: number; params: string }> = await db
        .selectFrom('sql_functions')
        .select(['id', 'params'])
        .execute();
      for (const row of rows) {
        const names = (JSON.parse(row.params) as Array<{ name: string }>).map((p) => p.name).sort();
        await db
          .updateTable('sql_functions')
          .set({ signature: names.join(',') })
          .where('id', '=', row.id)
          .execute();
      }
      await db.schema.dropIndex('sql_functions_account_name').execute();
      await db.schema
        .createIndex('sql_functions_account_name_signature')
        .on('sql_functions')
        .columns(['account_id', 'name', 'signature'])
        .unique()
        .execute();
    },
  };
}

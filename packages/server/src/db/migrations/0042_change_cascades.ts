import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * changeCascadesMigration links the history entries of a delete that cascaded. `change_group` is shared by every
 * entry one delete wrote (the rows it was asked to delete and every row its references' rules deleted or emptied,
 * at any depth); `caused_by` names, on an entry a rule wrote, the row whose delete made it (`<tableId>:<recordId>`).
 * A revert of a row's delete then finds the entries beneath it (features/history/history-cascades.ts). Both are
 * NULL on every other entry, so the index is partial: the ordinary writes never touch it.
 */
export function changeCascadesMigration(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
    async up(db: Kysely<any>) {
      await db.schema.alterTable('change_history').addColumn('change_group', 'text').execute();
      await db.schema.alterTable('change_history').addColumn('caused_by', 'text').execute();
      await db.schema
        .createIndex('change_history_group_idx')
        .on('change_history')
        .columns(['account_id', 'change_group'])
        .where(sql.ref('change_group'), 'is not', null)
        .execute();
    },
  };
}

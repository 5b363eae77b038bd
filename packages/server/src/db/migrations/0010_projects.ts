import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { SqlDialect } from '../dialect/dialect.js';

/**
 * projectsMigration creates projects (team workspaces), their memberships with a role, the links of tables to
 * projects, and the Schema Editor's layouts. A project's id is a UUID. A link has
 * no foreign key to `user_tables`, like history: a table deleted and restored from history keeps its id and so
 * its links; listings join the definitions, so a deleted table's link shows nothing. `schema_layouts` holds the
 * room's current layout (`layout`: the elements as JSON, `version` counting its changes, `deleted_ids`: the ids
 * of elements deleted in the room); `schema_layout_versions` keeps recent versions, the bases that editors'
 * updates are merged against (features/projects/schema-layouts.service.ts).
 */
export function projectsMigration(dialect: SqlDialect): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('projects')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('owner_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('icon', 'text')
        .addColumn('color', 'text')
        .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('project_memberships')
        .addColumn('id', dialect.autoIncrementType, (c) => dialect.autoIncrementId(c))
        .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('role', 'text', (c) => c.notNull().defaultTo('VIEWER'))
        .addColumn('joined_at', 'text', (c) => c.notNull())
        .addColumn('invited_by', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('project_memberships_project_account_key')
        .on('project_memberships')
        .columns(['project_id', 'account_id'])
        .unique()
        .execute();
      await db.schema
        .createIndex('project_memberships_account_idx')
        .on('project_memberships')
        .column('account_id')
        .execute();

      await db.schema
        .createTable('table_projects')
        .addColumn('id', dialect.autoIncrementType, (c) => dialect.autoIncrementId(c))
        .addColumn('table_id', 'bigint', (c) => c.notNull())
        .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('table_projects_project_table_key')
        .on('table_projects')
        .columns(['project_id', 'table_id'])
        .unique()
        .execute();
      await db.schema.createIndex('table_projects_table_idx').on('table_projects').column('table_id').execute();

      await db.schema
        .createTable('schema_layouts')
        .addColumn('id', dialect.autoIncrementType, (c) => dialect.autoIncrementId(c))
        .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('layout', 'text', (c) => c.notNull())
        .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('deleted_ids', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_by', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('schema_layouts_project_name_key')
        .on('schema_layouts')
        .columns(['project_id', 'name'])
        .unique()
        .execute();

      await db.schema
        .createTable('schema_layout_versions')
        .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('version', 'bigint', (c) => c.notNull())
        .addColumn('layout', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('schema_layout_versions_pkey', ['project_id', 'version'])
        .execute();
    },
  };
}

import type { ColumnType } from '@basalt/shared';

/**
 * POSTGRES_TYPE_NAMES names the PostgreSQL type each column type is stored as, as the catalog names it (`udt_name`):
 * what Supabase's clients read to convert values (postgres_changes' columns) and what PostgREST's messages list
 * (an rpc's candidates).
 */
export const POSTGRES_TYPE_NAMES: Readonly<Record<ColumnType, string>> = {
  text: 'text',
  number: 'float8',
  boolean: 'bool',
  date: 'timestamptz',
  date_only: 'date',
  json: 'jsonb',
  array: 'jsonb',
};

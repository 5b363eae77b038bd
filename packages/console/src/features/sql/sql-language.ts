import { MySQL, PostgreSQL, sql } from '@codemirror/lang-sql';
import type { Extension } from '@codemirror/state';
import { useMemo } from 'react';

// The Direct SQL editor's language: SQL highlighting in the connection's dialect and completion of its tables and
// columns, for the shared code editor.

/** useSqlLanguage is the SQL support for a connection's dialect and tables, the same value while they stay. */
export function useSqlLanguage(
  dialect: 'postgres' | 'mysql',
  tables: ReadonlyArray<{ name: string; columns: string[] }>,
): Extension {
  return useMemo(() => {
    const schema = Object.fromEntries(tables.map((t) => [t.name, t.columns]));
    return sql({ dialect: dialect === 'mysql' ? MySQL : PostgreSQL, schema });
  }, [dialect, tables]);
}

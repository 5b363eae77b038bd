import fs from 'node:fs';
import type Database from 'better-sqlite3';
import { sql } from 'kysely';
import type { HealthDialect } from './dialect.js';
import { runIntegrityPragmas } from './sqlite-integrity.js';

// At most this many problems are reported per check: a damaged file can list thousands.
const INTEGRITY_MAX_PROBLEMS = 50;

// SQLite serves Basalt through one connection per process (one writer at a time is SQLite's own limit): it is
// "active" while a transaction is open on it (a group of writes, a schema change), idle otherwise.
export function sqliteHealth(fileOf: (connection: object) => Database.Database): HealthDialect {
  return {
    async connectionStats(db, connection) {
      const file = fileOf(connection);
      const pragma = async (name: string) => {
        const { rows } = await sql<Record<string, number>>`${sql.raw(`PRAGMA ${name}`)}`.execute(db);
        return Number(Object.values(rows[0] ?? {})[0] ?? 0);
      };
      const [pageSize, pageCount, freePages] = [
        await pragma('page_size'),
        await pragma('page_count'),
        await pragma('freelist_count'),
      ];
      let walSizeBytes = 0;
      try {
        walSizeBytes = fs.statSync(`${file.name}-wal`).size;
      } catch {
        // No WAL file at the moment (just checkpointed and truncated).
      }
      const active = file.inTransaction ? 1 : 0;
      return {
        active,
        idle: 1 - active,
        max: 1,
        utilization: active,
        details: {
          engine: 'sqlite',
          sizeBytes: pageSize * pageCount,
          pageSize,
          pageCount,
          freePages,
          walSizeBytes,
        },
      };
    },
    async checkIntegrity(_db, connection) {
      const { quickCheck, foreignKeys } = await runIntegrityPragmas(fileOf(connection).name, INTEGRITY_MAX_PROBLEMS);
      const pageProblems = quickCheck.filter((line) => line !== 'ok');
      return [
        {
          name: 'quick_check',
          ok: pageProblems.length === 0,
          message:
            pageProblems.length === 0
              ? 'PRAGMA quick_check: every page, record and index entry is well formed'
              : `PRAGMA quick_check found ${pageProblems.length} problem(s)`,
          problems: pageProblems,
        },
        {
          name: 'foreign_keys',
          ok: foreignKeys.length === 0,
          message:
            foreignKeys.length === 0
              ? 'PRAGMA foreign_key_check: every reference points to an existing row'
              : `PRAGMA foreign_key_check found ${foreignKeys.length} row(s) referring to missing rows`,
          problems: foreignKeys.map((f) => `${f.table} row ${f.rowid ?? '?'} refers to a missing ${f.parent} row`),
        },
      ];
    },
    async tableNames(db) {
      const { rows } = await sql<{ name: string }>`SELECT name FROM sqlite_schema WHERE type = 'table'`.execute(db);
      return rows.map((row) => row.name);
    },
  };
}

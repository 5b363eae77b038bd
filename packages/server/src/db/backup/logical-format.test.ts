import { describe, expect, it } from 'vitest';
import { levelRefusal } from '../../features/backups/backup-manifest.js';
import { inDependencyOrder, rowsFileOf } from './logical-format.js';

// The pure parts of a restore's plan: the order rows are written back in, the names a part's files may have, and
// the refusal of a database newer than the server.

describe('inDependencyOrder', () => {
  it('puts every table after the tables it refers to, and keeps the rest in their order', () => {
    const order = inDependencyOrder(
      ['refresh_tokens', 'auth_sessions', 'notes', 'accounts'],
      [
        { table: 'refresh_tokens', references: 'auth_sessions' },
        { table: 'refresh_tokens', references: 'accounts' },
        { table: 'auth_sessions', references: 'accounts' },
        { table: 'accounts', references: 'accounts' },
      ],
    );
    expect(order).toEqual(['notes', 'accounts', 'auth_sessions', 'refresh_tokens']);
  });

  it('still lists every table when references form a cycle', () => {
    const order = inDependencyOrder(
      ['a', 'b', 'c'],
      [
        { table: 'a', references: 'b' },
        { table: 'b', references: 'a' },
      ],
    );
    expect(order.sort()).toEqual(['a', 'b', 'c']);
  });
});

describe('rowsFileOf', () => {
  it('refuses a table name that could leave the folder', () => {
    expect(() => rowsFileOf('/x', '../etc/passwd')).toThrow(/not a table name/);
    expect(() => rowsFileOf('/x', 'A')).toThrow(/not a table name/);
    expect(rowsFileOf('/x', 't_12')).toBe('/x/rows/t_12.ndjson');
  });
});

describe('levelRefusal', () => {
  const manifest = (migrations: string[]) =>
    ({ basaltVersion: '9.0.0', migrationLevel: migrations.at(-1) ?? '', migrations }) as Parameters<
      typeof levelRefusal
    >[0];

  it('accepts a database at or below the server level, in any order of numbering', () => {
    expect(levelRefusal(manifest(['0001_a', '0020_b']), ['0001_a', '0016_c', '0020_b'], ['0001_a'])).toBeNull();
  });

  it('names both versions when the database ran a migration the server does not know', () => {
    const refusal = levelRefusal(manifest(['0001_a', '0099_new']), ['0001_a', '0020_b'], ['0001_a', '0020_b']);
    expect(refusal).toMatch(/Basalt 9\.0\.0 at migration level 0099_new.*is at 0020_b and does not know 0099_new/);
  });
});

import { createHash } from 'node:crypto';
import type { UserTableShape } from '../../db/user-tables.js';

// Names under which PostgreSQL keeps a user table's statements prepared (once per pooled connection). A name
// carries the table's id and schema version, because `SELECT *` and `RETURNING *` answer other columns once the
// schema changes, and it is taken from the text itself, because a later definition of the same version (a cache
// refresh) must give the same text the same name: a connection refuses one name for two texts. Values are
// bound, so a table has few texts of a kind; past NAMES_PER_KIND the rest run unprepared rather than filling
// every connection with statements.

const NAMES_PER_KIND = 8;

const namesOf = new WeakMap<UserTableShape, Map<string, string>>();

/** tableStatementName is the name a statement of a kind (`get`, `ins`) on a table is prepared by, or null. */
export function tableStatementName(shape: UserTableShape, kind: string, text: string): string | null {
  if (shape.schemaVersion === undefined) return null;
  let names = namesOf.get(shape);
  if (!names) {
    names = new Map();
    namesOf.set(shape, names);
  }
  const key = `${kind}\n${text}`;
  const known = names.get(key);
  if (known !== undefined) return known;
  let ofKind = 0;
  for (const k of names.keys()) if (k.startsWith(`${kind}\n`)) ofKind++;
  if (ofKind >= NAMES_PER_KIND) return null;
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  const name = `basalt_${kind}_${shape.id}_${shape.schemaVersion}_${hash}`;
  names.set(key, name);
  return name;
}

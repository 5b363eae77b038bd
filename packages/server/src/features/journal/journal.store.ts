import type { CompiledQuery } from 'kysely';
import type { SqlDialect } from '../../db/dialect/dialect.js';
import { SqlText, textQuery } from '../../db/sql-text.js';

// The SQL that appends to the change history. It runs in the transaction of the change it records, so a change
// and its history commit or roll back together; features/history reads what it wrote.

/** ChangeType is what a history entry records. */
export type ChangeType =
  | 'SCHEMA_CREATE'
  | 'SCHEMA_UPDATE'
  | 'SCHEMA_DELETE'
  | 'RECORD_CREATE'
  | 'RECORD_UPDATE'
  | 'RECORD_DELETE'
  | 'FUNCTION_CREATE'
  | 'FUNCTION_UPDATE'
  | 'FUNCTION_DELETE';

/** ChangeInput is one change to record; states are JSON values (null where there is none). */
export interface ChangeInput {
  recordId: number | null;
  changeType: ChangeType;
  previousState: unknown;
  newState: unknown;
  /** The delete that cascaded this change belongs to, and the row whose delete caused it (record-references.ts). */
  cascade?: CascadeMark | null;
}

/** CascadeMark links an entry of a delete that cascaded: its group, and the `<tableId>:<recordId>` that caused it. */
export interface CascadeMark {
  group: string;
  causedBy: string | null;
}

/** ChangeContext is what the changes stored together share: whose table, who acted, when, what they revert. */
export interface ChangeContext {
  accountId: string;
  tableId: number;
  tableName: string;
  actorId: string | null;
  createdAt: string;
  /** The change these revert (features/history revert and restore); null for every other change. */
  revertOf: number | null;
}

// Twelve columns per row: 1,000 rows stay far below both engines' limit of bound values.
const INSERT_CHUNK = 1_000;

const stateText = (state: unknown) => (state === null || state === undefined ? null : JSON.stringify(state));

const COLUMNS = 12;
const INSERT_HEAD = `INSERT INTO "change_history" ("account_id", "table_id", "table_name", "record_id", "change_type",
  "previous_state", "new_state", "actor_id", "created_at", "revert_of", "change_group", "caused_by") VALUES `;

// The insert's text for n changes, built once per engine and count: a write then passes only its values, and the
// statement cache finds the same string every time instead of hashing a new one.
const insertTexts: Record<'numbered' | 'positional', string[]> = { numbered: [], positional: [] };

function insertText(dialect: SqlDialect, rows: number): string {
  const numbered = dialect.userTables.numberedParameters;
  const texts = insertTexts[numbered ? 'numbered' : 'positional'];
  let text = texts[rows];
  if (text === undefined) {
    const out = new SqlText(numbered).raw(INSERT_HEAD);
    for (let n = 0; n < rows; n++)
      out
        .raw(n === 0 ? '(' : ', (')
        .values(new Array(COLUMNS).fill(null))
        .raw(')');
    text = out.text;
    // The common counts only (one change, a batch of a few): a bulk write's text is built and dropped.
    if (rows <= 16) texts[rows] = text;
  }
  return text;
}

/**
 * insertChanges stores changes in order, in as few statements as the engines allow, through `run` (a scope's
 * `defer` in a write: nothing reads them back before it commits). It runs in every record write, so the statement
 * is written as text (db/sql-text.ts) rather than through the query builder.
 */
export async function insertChanges(
  run: (query: CompiledQuery) => Promise<unknown>,
  dialect: SqlDialect,
  context: ChangeContext,
  changes: readonly ChangeInput[],
): Promise<void> {
  const { accountId, tableId, tableName, actorId, createdAt, revertOf } = context;
  for (let i = 0; i < changes.length; i += INSERT_CHUNK) {
    const chunk = changes.slice(i, i + INSERT_CHUNK);
    const parameters: unknown[] = [];
    for (const change of chunk) {
      parameters.push(
        accountId,
        tableId,
        tableName,
        change.recordId,
        change.changeType,
        stateText(change.previousState),
        stateText(change.newState),
        actorId,
        createdAt,
        revertOf,
        change.cascade?.group ?? null,
        change.cascade?.causedBy ?? null,
      );
    }
    await run(textQuery(insertText(dialect, chunk.length), parameters));
  }
}

import { hasSqlDetails, loadModule, parse } from 'libpg-query';
import { noStatements, type SqlStatement, syntaxErrorAt } from './sql-statements.js';

// Statements of a PostgreSQL text, delimited by PostgreSQL's own parser (libpg_query compiled to WebAssembly and
// shipped inside the npm package: nothing is downloaded at install or run time). Dollar-quoted bodies, quoted
// semicolons, nested comments and every statement PostgreSQL knows split exactly as the server would split
// them; a text that does not parse throws a SqlInputError at the parser's position and nothing runs.

let loading: Promise<void> | null = null;

// The parser reports statement bounds in UTF-8 bytes (stmt_location, stmt_len).
function sliceBytes(bytes: Buffer, start: number, length: number | undefined): string {
  return bytes.subarray(start, length === undefined ? bytes.length : start + length).toString('utf8');
}

// Statements that hand back rows: read through a cursor, so that a million rows never sit in memory.
const ROW_STATEMENTS = new Set([
  'SelectStmt',
  'ExplainStmt',
  'VariableShowStmt',
  'FetchStmt',
  'CallStmt',
  'ExecuteStmt',
]);
const RETURNING_STATEMENTS = new Set(['InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt']);

function returnsRows(kind: string, node: Record<string, unknown>): boolean {
  if (kind === 'SelectStmt') return !node.intoClause;
  if (ROW_STATEMENTS.has(kind)) return true;
  if (!RETURNING_STATEMENTS.has(kind)) return false;
  // PostgreSQL 18's tree has returningClause {exprs}; earlier ones returningList.
  const clause = node.returningClause as { exprs?: unknown[] } | undefined;
  const list = clause?.exprs ?? node.returningList;
  return Array.isArray(list) && list.length > 0;
}

const leadingBlank = /^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/;

/** splitPostgres splits a PostgreSQL text into its statements, or throws a SqlInputError. */
export async function splitPostgres(text: string): Promise<SqlStatement[]> {
  if (!text.trim()) throw noStatements();
  loading ??= loadModule();
  await loading;
  let tree: Awaited<ReturnType<typeof parse>>;
  try {
    tree = await parse(text);
  } catch (error) {
    if (hasSqlDetails(error) && error.sqlDetails) {
      throw syntaxErrorAt(text, Math.max(0, error.sqlDetails.cursorPosition), error.sqlDetails.message);
    }
    throw syntaxErrorAt(text, 0, error instanceof Error ? error.message : String(error));
  }
  const bytes = Buffer.from(text, 'utf8');
  const ascii = bytes.length === text.length;
  const statements: SqlStatement[] = [];
  // Byte offsets become UTF-16 offsets step by step (statements come in order): decoding from the start for each
  // statement would cost the square of the text's length.
  let byteAt = 0;
  let charAt = 0;
  const charOffsetOf = (byte: number) => {
    if (ascii) return byte;
    charAt += bytes.subarray(byteAt, byte).toString('utf8').length;
    byteAt = byte;
    return charAt;
  };
  for (const raw of tree.stmts ?? []) {
    const location = raw.stmt_location ?? 0;
    const piece = sliceBytes(bytes, location, raw.stmt_len === 0 ? undefined : raw.stmt_len);
    const skipped = leadingBlank.exec(piece)?.[0].length ?? 0;
    const body = piece.slice(skipped).trimEnd();
    if (!body) continue;
    const [kind = '', node = {}] = Object.entries(raw.stmt ?? {})[0] ?? [];
    const fields = (node ?? {}) as Record<string, unknown>;
    statements.push({
      text: body,
      offset: charOffsetOf(location) + skipped,
      returnsRows: returnsRows(kind, fields),
      transactionControl: kind === 'TransactionStmt',
      explainable: false,
      definesTable: null,
    });
  }
  if (statements.length === 0) throw noStatements();
  return statements;
}

import { parse } from 'sql-parser-cst';
import { segmentsOf } from './sql-lexer.js';
import { noStatements, type SqlStatement, syntaxErrorAt } from './sql-statements.js';

// Statements of a MySQL or MariaDB text. Two steps:
//
// 1. Delimiting. sql-parser-cst has no grammar for stored programs (CREATE PROCEDURE/FUNCTION/TRIGGER/EVENT),
//    SHOW, GRANT or LOCK TABLES, so the text is cut here by MySQL's lexical rules (quotes with backslash
//    escapes, backticks, `#`, `-- ` and `/* */` comments): a `;` ends a statement unless it is inside a
//    stored program's body, whose BEGIN…END, IF…END IF, CASE…END, LOOP, REPEAT, WHILE and FOR blocks are
//    counted, so routines need no DELIMITER. A `DELIMITER xx` line (the mysql client's) is honoured too.
// 2. Checking. Each statement goes through sql-parser-cst; one it cannot parse goes to the target server's
//    own parser, by preparing it (COM_STMT_PREPARE parses without running anything). Only the server's syntax
//    error (1064) counts as one: a statement the server parses is accepted even where sql-parser-cst has no
//    grammar for it. The first statement that fails both throws a SqlInputError at its position; nothing runs.

/** MysqlFlavour picks sql-parser-cst's grammar: MySQL or MariaDB. */
export type MysqlFlavour = 'mysql' | 'mariadb';

/** ServerParseCheck asks the target server to parse a statement: its syntax error message, or null when it parses. */
export type ServerParseCheck = (statement: string) => Promise<string | null>;

interface Piece {
  start: number;
  end: number;
}

const BLOCK_OPENERS_AT_STATEMENT_START = new Set(['IF', 'LOOP', 'REPEAT', 'WHILE', 'FOR']);
const CLOSED_BY_END = new Set(['IF', 'CASE', 'LOOP', 'REPEAT', 'WHILE', 'FOR']);
// Words after which a stored program's body starts a new inner statement.
const INNER_STATEMENT_STARTERS = new Set(['BEGIN', 'THEN', 'ELSE', 'DO', 'LOOP', 'REPEAT', ';', ':']);
const ROUTINE_KINDS = new Set(['PROCEDURE', 'FUNCTION', 'TRIGGER', 'EVENT', 'PACKAGE']);
const TOKEN = /[A-Za-z_][A-Za-z0-9_$]*|\S/g;

// IF at the start of an inner statement is the IF statement only when THEN follows before the next `;` (after
// ELSE it may be the IF() function of a CASE expression's ELSE branch).
function opensBlock(text: string, word: string, from: number): boolean {
  if (word !== 'IF') return true;
  const end = text.indexOf(';', from);
  return /\bTHEN\b/i.test(text.slice(from, end === -1 ? undefined : end));
}

// Cuts the text into statement pieces; blank pieces are dropped later.
function delimit(text: string): Piece[] {
  const pieces: Piece[] = [];
  let delimiter = ';';
  let start = 0;
  let words = 0; // code tokens seen in the current statement
  let depth = 0;
  let routine = false;
  let previous = ';';
  let skipNextCloser = false;
  let firstWord = '';

  const finish = (end: number, next: number) => {
    pieces.push({ start, end });
    start = next;
    words = 0;
    depth = 0;
    routine = false;
    previous = ';';
    firstWord = '';
  };

  for (const segment of segmentsOf(text, 'mysql')) {
    if (segment.kind !== 'code') {
      if (segment.kind !== 'comment') words++;
      continue;
    }
    let i = segment.start;
    while (i < segment.end) {
      while (i < segment.end && /\s/.test(text[i] ?? '')) i++;
      if (i >= segment.end) break;
      // A DELIMITER line where a statement may start (the mysql client's directive, never sent to a server).
      if (words === 0 && /^[ \t]*$/.test(text.slice(text.lastIndexOf('\n', i - 1) + 1, i))) {
        const directive = /^DELIMITER[ \t]+(\S+)[^\n]*(\n|$)/i.exec(text.slice(i, segment.end));
        if (directive?.[1]) {
          delimiter = directive[1];
          i += directive[0].length;
          start = i;
          continue;
        }
      }
      if (delimiter !== ';' && text.startsWith(delimiter, i)) {
        finish(i, i + delimiter.length);
        i += delimiter.length;
        continue;
      }
      TOKEN.lastIndex = i;
      const match = TOKEN.exec(text);
      if (!match || match.index >= segment.end) break;
      const token = match[0];
      const at = match.index;
      i = at + token.length;
      if (delimiter === ';' && token === ';' && depth === 0) {
        finish(at, i);
        continue;
      }
      if (delimiter !== ';') {
        words++;
        continue;
      }
      const word = token.toUpperCase();
      if (words === 0) firstWord = word;
      words++;
      if (firstWord === 'CREATE' && words <= 12 && ROUTINE_KINDS.has(word)) routine = true;
      const inBody = routine || depth > 0;
      const innerStart = INNER_STATEMENT_STARTERS.has(previous);
      if (skipNextCloser) {
        skipNextCloser = false;
        if (CLOSED_BY_END.has(word)) {
          previous = word === 'LOOP' || word === 'REPEAT' ? 'END' : word;
          continue;
        }
      }
      if (word === 'BEGIN') {
        // At the start of a statement outside a routine, BEGIN starts a transaction (MariaDB: BEGIN NOT ATOMIC
        // opens an anonymous block).
        const anonymousBlock = /^\s+NOT\s+ATOMIC\b/i.test(text.slice(i, i + 40));
        if (inBody || words > 1 || anonymousBlock) depth++;
      } else if (word === 'CASE') depth++;
      else if (BLOCK_OPENERS_AT_STATEMENT_START.has(word) && depth > 0 && innerStart && opensBlock(text, word, i)) {
        depth++;
      } else if (word === 'END' && depth > 0) {
        depth--;
        skipNextCloser = true;
      }
      previous = word;
    }
  }
  if (start < text.length) pieces.push({ start, end: text.length });
  return pieces;
}

const leadingBlank = (text: string) => {
  let skip = 0;
  for (const segment of segmentsOf(text, 'mysql')) {
    if (segment.kind === 'comment') skip = segment.end;
    else if (segment.kind === 'code') {
      const blank = /^\s*/.exec(text.slice(segment.start, segment.end))?.[0].length ?? 0;
      skip = segment.start + blank;
      if (segment.start + blank < segment.end) break;
    } else break;
  }
  return skip;
};

// Trailing comments stay (harmless); trailing blanks go.
function bodyOf(text: string, piece: Piece): { text: string; offset: number } | null {
  const raw = text.slice(piece.start, piece.end);
  const skip = leadingBlank(raw);
  const body = raw.slice(skip).trimEnd();
  const onlyComments = segmentsOf(body, 'mysql').every(
    (s) => s.kind === 'comment' || !body.slice(s.start, s.end).trim(),
  );
  return body && !onlyComments ? { text: body, offset: piece.start + skip } : null;
}

const ROW_WORDS =
  /^(SELECT|WITH|VALUES|TABLE|SHOW|DESCRIBE|DESC|EXPLAIN|ANALYZE|CALL|CHECK|CHECKSUM|OPTIMIZE|REPAIR|HANDLER|\()/i;
const TRANSACTION_WORDS =
  /^(START\s+TRANSACTION|BEGIN(\s+WORK)?\s*$|COMMIT|ROLLBACK|SAVEPOINT|RELEASE\s+SAVEPOINT|XA\s)/i;
const EXPLAINABLE = new Set(['select_stmt', 'insert_stmt', 'update_stmt', 'delete_stmt']);

interface CstOutcome {
  type: string | null;
  definesTable: string | null;
  error: { line: number; column: number; reason: string } | null;
}

function cstCheck(statement: string, flavour: MysqlFlavour): CstOutcome {
  try {
    const program = parse(statement, { dialect: flavour, includeRange: true, filename: 'sql' });
    const node = program.statements.find((s) => s.type !== 'empty');
    let definesTable: string | null = null;
    if (node?.type === 'create_table_stmt' && node.name.range) {
      const name =
        statement
          .slice(...node.name.range)
          .split('.')
          .pop() ?? '';
      definesTable = name.replace(/^`|`$/g, '').toLowerCase();
    }
    return { type: node?.type ?? null, definesTable, error: null };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const place = /--> [^:\n]*:(\d+):(\d+)/.exec(message);
    return {
      type: null,
      definesTable: null,
      error: {
        line: Number(place?.[1] ?? 1),
        column: Number(place?.[2] ?? 1),
        reason: (message.split('\n')[0] ?? message).replace(/^Syntax Error: /, ''),
      },
    };
  }
}

// The offset in `statement` of a 1-based line and column.
function offsetOf(statement: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const next = statement.indexOf('\n', offset);
    if (next === -1) break;
    offset = next + 1;
  }
  return Math.min(statement.length, offset + column - 1);
}

// MySQL's syntax errors say where: "… near 'rest of the statement' at line N".
function serverErrorOffset(statement: string, message: string): number {
  const near = /near '([\s\S]*)' at line \d+/.exec(message)?.[1];
  if (near === undefined) return 0;
  if (near === '') return statement.length;
  const at = statement.indexOf(near.slice(0, 80));
  return at === -1 ? 0 : at;
}

/** splitMysql splits a MySQL/MariaDB text into checked statements, or throws a SqlInputError. */
export async function splitMysql(
  text: string,
  options: { flavour: MysqlFlavour; serverCheck?: ServerParseCheck },
): Promise<SqlStatement[]> {
  const statements: SqlStatement[] = [];
  for (const piece of delimit(text)) {
    const body = bodyOf(text, piece);
    if (!body) continue;
    const outcome = cstCheck(body.text, options.flavour);
    if (outcome.error) {
      const serverSays = options.serverCheck ? await options.serverCheck(body.text) : outcome.error.reason;
      if (serverSays !== null) {
        const offset = options.serverCheck
          ? serverErrorOffset(body.text, serverSays)
          : offsetOf(body.text, outcome.error.line, outcome.error.column);
        throw syntaxErrorAt(text, body.offset + offset, serverSays);
      }
    }
    const transactionControl = TRANSACTION_WORDS.test(body.text);
    statements.push({
      text: body.text,
      offset: body.offset,
      returnsRows: ROW_WORDS.test(body.text),
      transactionControl,
      explainable: outcome.type !== null && EXPLAINABLE.has(outcome.type),
      definesTable: outcome.definesTable,
    });
  }
  if (statements.length === 0) throw noStatements();
  return statements;
}

// The lexical layer under statement splitting and variable replacement: where a SQL text's string literals,
// quoted identifiers and comments are, per dialect. It does not parse: the parsers (libpg-query, sql-parser-cst
// and the MySQL server's own) decide what a statement is; this only keeps `;` and `{{name}}` inside quotes or
// comments from being taken for code.

/** TargetDialect is the SQL of a target database: PostgreSQL, or MySQL/MariaDB. */
export type TargetDialect = 'postgres' | 'mysql';

/** SegmentKind tells code from the parts of a text that are never code. */
export type SegmentKind = 'code' | 'string' | 'identifier' | 'comment';

/** Segment is a run of one kind, [start, end) in the text's UTF-16 offsets. */
export interface Segment {
  kind: SegmentKind;
  start: number;
  end: number;
}

const isIdentChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}_$]/u.test(c);

// A quoted run that ends at `quote` (doubled quotes stay inside; backslash escapes where `backslash`).
function endOfQuoted(text: string, from: number, quote: string, backslash: boolean): number {
  let i = from + 1;
  while (i < text.length) {
    const c = text[i];
    if (backslash && c === '\\') {
      i += 2;
      continue;
    }
    if (c === quote) {
      if (text[i + 1] === quote) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i++;
  }
  return text.length;
}

function endOfLine(text: string, from: number): number {
  const at = text.indexOf('\n', from);
  return at === -1 ? text.length : at + 1;
}

// PostgreSQL's block comments nest.
function endOfBlockComment(text: string, from: number, nested: boolean): number {
  let depth = 0;
  let i = from;
  while (i < text.length) {
    if (text.startsWith('/*', i) && (nested || depth === 0)) {
      depth++;
      i += 2;
    } else if (text.startsWith('*/', i)) {
      depth--;
      i += 2;
      if (depth === 0) return i;
    } else i++;
  }
  return text.length;
}

const DOLLAR_TAG = /^\$([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/;

// The length of the special run starting at i, or 0 when i starts plain code.
function postgresRun(text: string, i: number): { kind: SegmentKind; end: number } | null {
  const c = text[i];
  if (c === "'") {
    const escaped = (text[i - 1] === 'E' || text[i - 1] === 'e') && !isIdentChar(text[i - 2]);
    return { kind: 'string', end: endOfQuoted(text, i, "'", escaped) };
  }
  if (c === '"') return { kind: 'identifier', end: endOfQuoted(text, i, '"', false) };
  if (c === '-' && text[i + 1] === '-') return { kind: 'comment', end: endOfLine(text, i) };
  if (c === '/' && text[i + 1] === '*') return { kind: 'comment', end: endOfBlockComment(text, i, true) };
  if (c === '$' && !isIdentChar(text[i - 1])) {
    const tag = DOLLAR_TAG.exec(text.slice(i, i + 256))?.[0];
    if (tag) {
      const close = text.indexOf(tag, i + tag.length);
      return { kind: 'string', end: close === -1 ? text.length : close + tag.length };
    }
  }
  return null;
}

function mysqlRun(text: string, i: number): { kind: SegmentKind; end: number } | null {
  const c = text[i];
  if (c === "'" || c === '"') return { kind: 'string', end: endOfQuoted(text, i, c, true) };
  if (c === '`') return { kind: 'identifier', end: endOfQuoted(text, i, '`', false) };
  if (c === '#') return { kind: 'comment', end: endOfLine(text, i) };
  // MySQL needs a space (or a control character, or the end) after `--`.
  if (c === '-' && text[i + 1] === '-' && (i + 2 >= text.length || text.charCodeAt(i + 2) <= 32)) {
    return { kind: 'comment', end: endOfLine(text, i) };
  }
  if (c === '/' && text[i + 1] === '*') return { kind: 'comment', end: endOfBlockComment(text, i, false) };
  return null;
}

/** segmentsOf cuts a text into code, strings, quoted identifiers and comments by the dialect's lexical rules. */
export function segmentsOf(text: string, dialect: TargetDialect): Segment[] {
  const runAt = dialect === 'postgres' ? postgresRun : mysqlRun;
  const segments: Segment[] = [];
  let codeStart = 0;
  let i = 0;
  while (i < text.length) {
    const run = runAt(text, i);
    if (!run) {
      i++;
      continue;
    }
    if (i > codeStart) segments.push({ kind: 'code', start: codeStart, end: i });
    segments.push({ kind: run.kind, start: i, end: run.end });
    i = run.end;
    codeStart = i;
  }
  if (text.length > codeStart) segments.push({ kind: 'code', start: codeStart, end: text.length });
  return segments;
}

/** lineAndColumn is the 1-based line and column of a UTF-16 offset in a text. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

import { type ParseTarget, parseError, type RestQueryError } from './rest-query.errors.js';
import type { FieldRef, JsonPathStep } from './rest-query.types.js';

// A small hand-written scanner for PostgREST's query grammar (its Parsec parsers in QueryParams.hs). Errors
// carry a position and what was expected, and are rendered the way Parsec renders them, so PGRST100
// messages and details match PostgREST's for the common mistakes.

/** ParseFailure is a syntax error at a position: what was found and what would have been accepted. */
export class ParseFailure extends Error {
  constructor(
    readonly pos: number,
    readonly unexpected: string,
    readonly expected: string[],
    /** note replaces the Parsec-style details (used for what Basalt does not support). */
    readonly note: string | null = null,
  ) {
    super(note ?? `unexpected ${unexpected}`);
    this.name = 'ParseFailure';
  }

  /** details renders the failure as Parsec does: `unexpected "x" expecting a, b or c`. */
  details(): string {
    if (this.note !== null) return this.note;
    if (this.expected.length === 0) return `unexpected ${this.unexpected}`;
    return `unexpected ${this.unexpected} expecting ${joinOr(this.expected)}`;
  }

  /** toRestError turns the failure into PGRST100 for one parameter; `offset` shifts the column. */
  toRestError(target: ParseTarget, input: string, offset = 0): RestQueryError {
    return parseError(target, input, this.pos + 1 - offset, this.details());
  }
}

/** joinOr joins alternatives as Parsec does: `a, b or c`. */
function joinOr(items: string[]): string {
  const unique = [...new Set(items)];
  if (unique.length <= 1) return unique.join('');
  return `${unique.slice(0, -1).join(', ')} or ${unique.at(-1)}`;
}

const FIELD_NAME = 'field name (* or [a..z0..9_$])';
// Parsec's `letter` is any Unicode letter; digits are ASCII; PostgREST also allows `_`, `$` and spaces.
const IDENTIFIER_CHAR = /^[\p{L}0-9_ $]$/u;
const JSON_KEY_STOP = new Set(['(', '-', ':', '.', ',', '>', ')']);

/** Cursor walks one parameter's text. */
export class Cursor {
  pos = 0;

  constructor(readonly text: string) {}

  /** peek returns the character `ahead` places on, or undefined at the end. */
  peek(ahead = 0): string | undefined {
    return this.text[this.pos + ahead];
  }

  /** startsWith tells whether the rest of the text begins with `s`. */
  startsWith(s: string): boolean {
    return this.text.startsWith(s, this.pos);
  }

  /** atEnd tells whether all text is consumed. */
  atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  /** unexpectedAt describes the character at a position as Parsec does. */
  unexpectedAt(pos = this.pos): string {
    const c = this.text[pos];
    return c === undefined ? 'end of input' : JSON.stringify(c);
  }

  /** fail throws a ParseFailure at a position (default: here). */
  fail(expected: string[], pos = this.pos): never {
    throw new ParseFailure(pos, this.unexpectedAt(pos), expected);
  }

  /** unsupported throws a ParseFailure whose details explain what Basalt does not support. */
  unsupported(note: string, pos = this.pos): never {
    throw new ParseFailure(pos, this.unexpectedAt(pos), [], note);
  }

  /** expect consumes `s` or fails expecting it. */
  expect(s: string, label = JSON.stringify(s)): void {
    if (!this.startsWith(s)) this.fail([label]);
    this.pos += s.length;
  }

  /** skipSpaces skips spaces and tabs (Parsec's `lexeme`). */
  skipSpaces(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.pos++;
  }

  /**
   * failKeywords fails where one of several keywords was expected; like Parsec, the unexpected character is
   * where the text first departs from the first keyword.
   */
  failKeywords(keywords: string[], pos = this.pos, alsoExpected: string[] = []): never {
    const first = keywords[0] ?? '';
    let i = 0;
    while (i < first.length && this.text[pos + i] === first[i]) i++;
    const expected = [...keywords.map((k) => JSON.stringify(k)), ...alsoExpected];
    throw new ParseFailure(pos, this.unexpectedAt(pos + i), expected);
  }
}

/** quotedValue reads `"…"` where `\` escapes the next character; the cursor is on the opening quote. */
export function quotedValue(c: Cursor): string {
  c.expect('"');
  let value = '';
  for (;;) {
    const ch = c.peek();
    if (ch === undefined) c.fail(['"\\""']);
    if (ch === '"') break;
    if (ch === '\\') {
      const escaped = c.peek(1);
      if (escaped === undefined) {
        c.pos++;
        c.fail(['any character']);
      }
      value += escaped;
      c.pos += 2;
    } else {
      value += ch;
      c.pos++;
    }
  }
  c.pos++;
  return value;
}

function identifier(c: Cursor, expected: string): string {
  const start = c.pos;
  while (IDENTIFIER_CHAR.test(c.peek() ?? '')) c.pos++;
  if (c.pos === start) c.fail([expected]);
  return c.text.slice(start, c.pos).trim();
}

/** isDash tells whether the cursor is on a `-` that joins name parts (not the start of `->`). */
function isDash(c: Cursor): boolean {
  return c.peek() === '-' && c.peek(1) !== '>';
}

/** fieldName reads a column name: `"quoted"` or identifier parts joined by single dashes (`my-col`). */
export function fieldName(c: Cursor): string {
  if (c.peek() === '"') return quotedValue(c);
  const parts = [identifier(c, FIELD_NAME)];
  while (isDash(c)) {
    c.pos++;
    parts.push(identifier(c, FIELD_NAME));
  }
  return parts.join('-');
}

/** castName reads the identifier after `::`. */
export function castName(c: Cursor): string {
  return identifier(c, 'letter or digit');
}

function jsonKey(c: Cursor): string {
  if (c.peek() === '"') return quotedValue(c);
  const parts: string[] = [];
  do {
    if (parts.length > 0) c.pos++;
    const start = c.pos;
    while (c.peek() !== undefined && !JSON_KEY_STOP.has(c.peek() ?? '')) c.pos++;
    if (c.pos === start) c.fail(['any non reserved character different from: .,>()']);
    parts.push(c.text.slice(start, c.pos).trim());
  } while (isDash(c));
  return parts.join('-');
}

const INDEX = /^-?\d+/;

/** jsonPath reads `->key`, `->>key` and `->0` steps until none follows. */
export function jsonPath(c: Cursor): JsonPathStep[] {
  const steps: JsonPathStep[] = [];
  while (c.startsWith('->')) {
    const arrow = c.startsWith('->>') ? '->>' : '->';
    c.pos += arrow.length;
    const index = INDEX.exec(c.text.slice(c.pos))?.[0];
    const after = index === undefined ? -1 : c.pos + index.length;
    const ends =
      after >= 0 && (after === c.text.length || ['->', '::', '.', ','].some((s) => c.text.startsWith(s, after)));
    if (index !== undefined && ends) {
      steps.push({ arrow, key: Number(index) });
      c.pos = after;
    } else {
      steps.push({ arrow, key: jsonKey(c) });
    }
  }
  return steps;
}

/** field reads a column and its JSON path, skipping spaces around it. */
export function field(c: Cursor): FieldRef {
  c.skipSpaces();
  const column = fieldName(c);
  const path = jsonPath(c);
  c.skipSpaces();
  return { column, jsonPath: path };
}

/** withTarget runs a parse of one parameter, turning a ParseFailure into PGRST100 for it. */
export function withTarget<T>(target: ParseTarget, input: string, parse: () => T, offset = 0): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof ParseFailure) throw error.toRestError(target, input, offset);
    throw error;
  }
}

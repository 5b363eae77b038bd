import type { SampleValue } from './record-samples';

// Values written as source code: a JavaScript object literal, a Python dict, or JSON. Short values stay on one
// line; longer ones break one entry per line (with trailing commas in JavaScript and Python, which accept
// them), the way a person would write the example by hand.

/** LiteralStyle is how one language writes strings, keys and the three constants. */
interface LiteralStyle {
  string(text: string): string;
  key(name: string): string;
  true: string;
  false: string;
  null: string;
  indent: string;
  trailingComma: boolean;
  /** spaced writes `{ a: 1 }` rather than `{a: 1}`. */
  spaced: boolean;
  /** maxWidth is how wide a line may grow before a value breaks one entry per line. */
  maxWidth: number;
}

const JS_IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

// JSON's string escapes are valid in both languages; JavaScript is written with single quotes here.
const jsString = (text: string) => `'${JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;

const JAVASCRIPT: LiteralStyle = {
  string: jsString,
  key: (name) => (JS_IDENTIFIER.test(name) ? name : jsString(name)),
  true: 'true',
  false: 'false',
  null: 'null',
  indent: '  ',
  trailingComma: true,
  spaced: true,
  maxWidth: 100,
};

const PYTHON: LiteralStyle = {
  string: (text) => JSON.stringify(text),
  key: (name) => JSON.stringify(name),
  true: 'True',
  false: 'False',
  null: 'None',
  indent: '    ',
  trailingComma: true,
  spaced: false,
  maxWidth: 100,
};

const JSON_STYLE: LiteralStyle = {
  string: (text) => JSON.stringify(text),
  key: (name) => JSON.stringify(name),
  true: 'true',
  false: 'false',
  null: 'null',
  indent: '  ',
  trailingComma: false,
  spaced: false,
  // Example bodies read best narrow: an error's inner object breaks, a short {"a": 1} stays.
  maxWidth: 64,
};

function entriesOf(value: SampleValue[] | { [key: string]: SampleValue }, style: LiteralStyle, indent: string) {
  return Array.isArray(value)
    ? value.map((item) => literal(item, style, { indent }))
    : Object.entries(value).map(([key, item]) => {
        const prefix = `${style.key(key)}: `;
        return `${prefix}${literal(item, style, { indent, prefixWidth: prefix.length })}`;
      });
}

/** Layout is where a literal starts: its line's indentation, what precedes it on the line, and whether to break. */
interface Layout {
  indent?: string;
  prefixWidth?: number;
  /** broken puts an object's or array's entries one per line even when they would fit on one. */
  broken?: boolean;
}

function flat(value: SampleValue, style: LiteralStyle): string {
  if (value === null) return style.null;
  if (typeof value === 'boolean') return value ? style.true : style.false;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return style.string(value);
  const entries = entriesOf(value, style, '');
  if (Array.isArray(value)) return `[${entries.join(', ')}]`;
  if (entries.length === 0) return '{}';
  return style.spaced ? `{ ${entries.join(', ')} }` : `{${entries.join(', ')}}`;
}

function literal(
  value: SampleValue,
  style: LiteralStyle,
  { indent = '', prefixWidth = 0, broken = false }: Layout,
): string {
  const oneLine = flat(value, style);
  if (value === null || typeof value !== 'object') return oneLine;
  if (!broken && indent.length + prefixWidth + oneLine.length <= style.maxWidth) return oneLine;
  const inner = indent + style.indent;
  const entries = entriesOf(value, style, inner);
  if (entries.length === 0) return oneLine;
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  const lines = entries.map(
    (entry, i) => `${inner}${entry}${style.trailingComma || i < entries.length - 1 ? ',' : ''}`,
  );
  return `${open}\n${lines.join('\n')}\n${indent}${close}`;
}

/** jsLiteral writes a value as a JavaScript literal; `indent` is the indentation of the line it starts on. */
export function jsLiteral(value: SampleValue, indent = '', prefixWidth = 0): string {
  return literal(value, JAVASCRIPT, { indent, prefixWidth });
}

/** pyLiteral writes a value as a Python literal (True, False, None); `indent` as for jsLiteral. */
export function pyLiteral(value: SampleValue, indent = '', prefixWidth = 0): string {
  return literal(value, PYTHON, { indent, prefixWidth });
}

/** jsonText writes a value as JSON, an object or array one entry per line and what fits inside on one line. */
export function jsonText(value: SampleValue, indent = ''): string {
  return literal(value, JSON_STYLE, { indent, broken: true });
}

/** shellQuote quotes text as one POSIX shell word: in single quotes, a single quote written as '\''. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

// A body longer than this is written one field per line in a curl command.
const MAX_INLINE_BODY = 60;

/** curlJson is a JSON body as curl's -d argument: quoted for the shell, one field per line when long. */
export function curlJson(value: SampleValue): string {
  const compact = JSON.stringify(value);
  return shellQuote(compact.length <= MAX_INLINE_BODY ? compact : jsonText(value, '  '));
}

import { AUTH_UID } from '@basalt/shared';
import { loadModule, parse, type ScanToken, scan } from 'libpg-query';

// The one statement of a SQL function, checked once and made safe to run on either engine. The owner writes a
// SELECT in PostgreSQL's syntax with `:name` placeholders and their own tables' names; PostgreSQL's own parser
// (libpg_query, the SQL Execution parser) reads it, and:
//
// - Only a SELECT (WITH, joins, subqueries, grouping, windows) passes; every node of its tree must be of a kind
//   listed below, every function one of FUNCTIONS, every cast one of CAST_TYPES: nothing reads a setting, a file, the
//   catalog or another engine's extension, and no INSERT/UPDATE/DELETE hides in a WITH.
// - Every table it names must be one of the account's (or a WITH query of the statement): each becomes the real
//   `t_<id>` at call time, aliased back to the name the owner wrote. A schema-qualified name is refused.
// - The text that runs is rebuilt from PostgreSQL's tokens, one space apart: comments are dropped, and only tokens
//   SQLite reads the same way pass (plain '…' strings, "…" identifiers, no `[`, `?`, `@`, `$`, `#`, E'' or $$ strings),
//   so the two engines cannot disagree on where a string or a comment ends.
// - Placeholders become bound parameters; a value is never spliced into the text.

/** AUTH_UID is the placeholder that holds the caller's end-user id (null when signed out or not an end user). */
export { AUTH_UID } from '@basalt/shared';

/** BodyPart is a piece of the statement as it runs: text, a bound parameter, or one of the account's tables. */
export type BodyPart =
  | { kind: 'text'; text: string }
  | { kind: 'param'; name: string }
  | { kind: 'table'; name: string; alias: string | null };

/** CompiledBody is a checked statement: its parts and the account's tables it reads. */
export interface CompiledBody {
  parts: BodyPart[];
  tables: string[];
}

/** BodyError is a statement the owner must change, with a message that says why. */
export class BodyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BodyError';
  }
}

/** CompileOptions are the declared parameters and the lookup of the account's table names. */
export interface CompileOptions {
  params: readonly string[];
  /** tableNamed is the account's table a name written in the statement means, or null. */
  tableNamed: (name: string) => string | null;
}

const NODES = new Set([
  'SelectStmt',
  'ResTarget',
  'ColumnRef',
  'A_Star',
  'String',
  'Integer',
  'Float',
  'Boolean',
  'A_Const',
  'ParamRef',
  'A_Expr',
  'BoolExpr',
  'NullTest',
  'BooleanTest',
  'FuncCall',
  'TypeCast',
  'RangeVar',
  'JoinExpr',
  'RangeSubselect',
  'SubLink',
  'SortBy',
  'CaseExpr',
  'CaseWhen',
  'CoalesceExpr',
  'MinMaxExpr',
  'WithClause',
  'CommonTableExpr',
  'List',
  'SQLValueFunction',
  'WindowDef',
  'RowExpr',
]);

// Functions both engines know, or that one of them refuses when the definition is tried on it.
const FUNCTIONS = new Set([
  'count',
  'sum',
  'avg',
  'min',
  'max',
  'total',
  'string_agg',
  'group_concat',
  'lower',
  'upper',
  'length',
  'abs',
  'round',
  'ceil',
  'floor',
  'trim',
  'ltrim',
  'rtrim',
  'replace',
  'substr',
  'concat',
  'coalesce',
  'nullif',
  'row_number',
  'rank',
  'dense_rank',
]);

const CAST_TYPES = new Set([
  'text',
  'varchar',
  'int2',
  'int4',
  'int8',
  'numeric',
  'float4',
  'float8',
  'bool',
  'date',
  'timestamp',
  'timestamptz',
  'json',
  'jsonb',
]);

const SQL_VALUE_FUNCTIONS = new Set(['SVFOP_CURRENT_DATE', 'SVFOP_CURRENT_TIMESTAMP']);

// Characters no token outside a string or a quoted identifier may hold: SQLite reads them as parameters,
// identifier quotes or comments where PostgreSQL reads operators.
const FOREIGN_CHARS = /[[\]?@#$^`\\{}]/;
const COMMENTS = new Set(['SQL_COMMENT', 'C_COMMENT']);

let loading: Promise<void> | null = null;

/** tokensOf is PostgreSQL's tokens of a statement (a BodyError when it does not scan). */
export async function tokensOf(text: string): Promise<ScanToken[]> {
  loading ??= loadModule();
  await loading;
  try {
    return (await scan(text)).tokens;
  } catch (error) {
    throw new BodyError(`The statement does not parse: ${messageOf(error)}`);
  }
}

/** messageOf is an error's message. */
export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function checkToken(token: ScanToken): void {
  const { text, tokenName } = token;
  if (tokenName === 'SCONST') {
    if (!text.startsWith("'")) throw new BodyError(`Write strings as '…' (${text.slice(0, 20)} is not portable)`);
    return;
  }
  if (tokenName === 'IDENT') {
    if (/^u&/i.test(text)) throw new BodyError('Unicode-escaped identifiers are not supported');
    // PostgreSQL allows `$` inside a bare name; SQLite may read `$…` there as a parameter.
    if (!text.startsWith('"') && text.includes('$')) throw new BodyError(`Quote the name ${text} (it holds a $)`);
    return;
  }
  if (tokenName === 'PARAM') throw new BodyError(`Name parameters with :name placeholders, not ${text}`);
  if (tokenName === 'BCONST' || tokenName === 'XCONST' || tokenName === 'UCONST' || tokenName === 'UIDENT') {
    throw new BodyError(`${text.slice(0, 20)} is not supported: write strings as '…'`);
  }
  if (FOREIGN_CHARS.test(text)) throw new BodyError(`The token ${text} is not supported in a SQL function`);
}

// A placeholder's name: any word, keywords too (a parameter may be called `name` or `limit`).
const PLACEHOLDER = /^[A-Za-z][A-Za-z0-9_]*$/;

/** normalize rebuilds the text from its tokens and turns `:name` placeholders into `$n` (n: 1-based in `names`). */
export async function normalize(text: string, names: readonly string[]): Promise<string> {
  const tokens = (await tokensOf(text)).filter((t) => !COMMENTS.has(t.tokenName));
  if (tokens.at(-1)?.text === ';') tokens.pop();
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as ScanToken;
    const next = tokens[i + 1];
    if (token.text === ':' && next && next.start === token.end && PLACEHOLDER.test(next.text)) {
      const at = names.indexOf(next.text);
      if (at === -1) throw new BodyError(`The statement uses :${next.text}, which is not a parameter`);
      out.push(`$${at + 1}`);
      i++;
      continue;
    }
    if (token.text === ';') throw new BodyError('A SQL function holds one statement');
    checkToken(token);
    out.push(token.text);
  }
  if (out.length === 0) throw new BodyError('The statement is empty');
  return out.join(' ');
}

/** Tree is a node of libpg_query's parse tree. */
export type Tree = Record<string, unknown>;
/** isTree tells a node from a value. */
export const isTree = (value: unknown): value is Tree =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** lastName is the last part of a qualified name's list. */
export const lastName = (names: unknown): string => {
  const last = Array.isArray(names) ? names.at(-1) : undefined;
  const inner = isTree(last) && isTree(last.String) ? last.String.sval : undefined;
  return typeof inner === 'string' ? inner : '';
};

interface Found {
  /** RangeVar byte offsets → the account table and the alias written, if any. */
  tables: Map<number, { name: string; alias: string | null; written: string }>;
  ctes: Set<string>;
}

function collectCtes(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) collectCtes(item, into);
    return;
  }
  if (!isTree(value)) return;
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'CommonTableExpr' && isTree(inner) && typeof inner.ctename === 'string') into.add(inner.ctename);
    collectCtes(inner, into);
  }
}

function checkNode(kind: string, node: Tree, found: Found, options: CompileOptions): void {
  if (!NODES.has(kind)) throw new BodyError(`${kind} is not allowed in a SQL function (only a SELECT is)`);
  switch (kind) {
    case 'SelectStmt':
      if (node.intoClause) throw new BodyError('SELECT … INTO is not allowed in a SQL function');
      if (node.lockingClause) throw new BodyError('FOR UPDATE/SHARE is not allowed in a SQL function');
      return;
    case 'FuncCall': {
      const names = node.funcname;
      const name = lastName(names).toLowerCase();
      if (!Array.isArray(names) || names.length !== 1 || !FUNCTIONS.has(name)) {
        throw new BodyError(`The function ${name || '?'}() is not allowed in a SQL function`);
      }
      return;
    }
    case 'TypeCast': {
      // The target type is a bare field of the cast, not a node of its own.
      const type = isTree(node.typeName) ? node.typeName : {};
      const name = lastName(type.names).toLowerCase();
      if (!CAST_TYPES.has(name) || type.arrayBounds) throw new BodyError(`Casting to ${name || '?'} is not allowed`);
      return;
    }
    case 'SQLValueFunction':
      if (!SQL_VALUE_FUNCTIONS.has(String(node.op))) {
        throw new BodyError('Only CURRENT_DATE and CURRENT_TIMESTAMP are allowed among SQL value functions');
      }
      return;
    case 'RangeVar': {
      const relname = String(node.relname ?? '');
      if (node.schemaname || node.catalogname) throw new BodyError(`Name tables without a schema (${relname})`);
      const alias = isTree(node.alias) && typeof node.alias.aliasname === 'string' ? node.alias.aliasname : null;
      if (found.ctes.has(relname)) {
        if (options.tableNamed(relname)) throw new BodyError(`A WITH query may not take the table name ${relname}`);
        return;
      }
      const name = options.tableNamed(relname);
      if (!name) throw new BodyError(`The statement reads ${relname}, which is not one of your tables`);
      found.tables.set(Number(node.location), { name, alias, written: relname });
      return;
    }
    default:
      return;
  }
}

function walk(value: unknown, found: Found, options: CompileOptions, depth: number): void {
  if (depth > 200) throw new BodyError('The statement nests too deeply');
  if (Array.isArray(value)) {
    for (const item of value) walk(item, found, options, depth + 1);
    return;
  }
  if (!isTree(value)) return;
  for (const [key, inner] of Object.entries(value)) {
    // Node kinds are capitalised (SelectStmt, RangeVar…); fields are not.
    if (/^[A-Z]/.test(key)) checkNode(key, isTree(inner) ? inner : {}, found, options);
    walk(inner, found, options, depth + 1);
  }
}

/** parseOne is the parse tree of a text that must hold exactly one statement, of any kind. */
export async function parseOne(text: string): Promise<Tree> {
  let tree: { stmts?: Array<{ stmt?: unknown }> };
  try {
    tree = (await parse(text)) as typeof tree;
  } catch (error) {
    throw new BodyError(`The statement does not parse: ${messageOf(error)}`);
  }
  const statements = tree.stmts ?? [];
  if (statements.length !== 1) throw new BodyError('A SQL function holds exactly one statement');
  const stmt = statements[0]?.stmt;
  if (!isTree(stmt)) throw new BodyError('A SQL function holds exactly one statement');
  return stmt;
}

async function treeOf(text: string): Promise<Tree> {
  const stmt = await parseOne(text);
  if (!isTree(stmt.SelectStmt)) throw new BodyError('A SQL function holds one SELECT, INSERT, UPDATE or DELETE');
  return stmt;
}

/** compileBody checks a SQL function's statement and splits it into the parts a call runs, or throws a BodyError. */
export async function compileBody(text: string, options: CompileOptions): Promise<CompiledBody> {
  if (text.includes('\u0000')) throw new BodyError('The statement must not contain the NUL character');
  const names = [...options.params, AUTH_UID];
  const normalized = await normalize(text, names);
  const stmt = await treeOf(normalized);
  const found: Found = { tables: new Map(), ctes: new Set() };
  collectCtes(stmt, found.ctes);
  walk(stmt, found, options, 0);

  const parts: BodyPart[] = [];
  let text_ = '';
  const flush = () => {
    if (text_) parts.push({ kind: 'text', text: text_ });
    text_ = '';
  };
  for (const token of await tokensOf(normalized)) {
    const table = found.tables.get(token.start);
    if (table) {
      flush();
      parts.push({ kind: 'table', name: table.name, alias: table.alias === null ? table.written : null });
      text_ = ' ';
    } else if (token.tokenName === 'PARAM') {
      flush();
      parts.push({ kind: 'param', name: names[Number(token.text.slice(1)) - 1] ?? '' });
      text_ = ' ';
    } else {
      text_ += `${token.text} `;
    }
  }
  flush();
  return { parts, tables: [...new Set([...found.tables.values()].map((t) => t.name))] };
}

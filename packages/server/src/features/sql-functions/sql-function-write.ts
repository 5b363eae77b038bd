import { AUTH_UID } from '@basalt/shared';
import type { ScanToken } from 'libpg-query';
import {
  BodyError,
  type CompiledBody,
  type CompileOptions,
  compileBody,
  isTree,
  normalize,
  parseOne,
  type Tree,
  tokensOf,
} from './sql-function-body.js';

// A SQL function's statement as the service runs it: a SELECT (compiled by sql-function-body.ts), or one INSERT,
// UPDATE or DELETE on one of the account's tables. A write never runs as written: every record write goes through
// the records service (history, activity, row counts, change events, reference checks), so the write is split into
// - a SELECT that finds what it would write: the rows an INSERT's VALUES or SELECT gives, the ids an UPDATE's or a
//   DELETE's WHERE selects (with FROM / USING), and an UPDATE's new values computed from each row. It is checked
//   as any function's SELECT is (only the account's tables, listed functions and casts), so it reaches no other
//   table; and
// - what the records service then does with them: create those rows, update those records with those values,
//   delete those records — in one transaction with the SELECT (sql-function-write-run.ts).
// RETURNING names columns of the table (or *): they are read from the records as the records service wrote them.

/** ReturningColumn is one column of a RETURNING list, with the name it is given. */
export interface ReturningColumn {
  column: string;
  as: string;
}

/** WritePlan is a checked write: its table, the columns it sets, the SELECT that finds what to write. */
export interface WritePlan {
  op: 'insert' | 'update' | 'delete';
  /** The account's table, as named in its definitions. */
  table: string;
  /** INSERT's column list or UPDATE's SET columns, in order; the selection gives them as rpc_1, rpc_2, … */
  columns: string[];
  /** insert: rpc_1… per row; update: rpc_id and rpc_1… per record; delete: rpc_id per record. */
  selection: CompiledBody;
  /** null without RETURNING; 'all' for RETURNING *. */
  returning: ReturningColumn[] | 'all' | null;
}

/** CompiledStatement is a function's statement: a read, or a write to carry out through the records service. */
export type CompiledStatement = { kind: 'read'; body: CompiledBody } | { kind: 'write'; plan: WritePlan };

const WRITES = { InsertStmt: 'insert', UpdateStmt: 'update', DeleteStmt: 'delete' } as const;

/** selectionColumn is the name the selection gives the i-th (0-based) written column. */
export const selectionColumn = (i: number) => `rpc_${i + 1}`;

/** compileStatement checks a function's statement: a SELECT, or one INSERT, UPDATE or DELETE. */
export async function compileStatement(text: string, options: CompileOptions): Promise<CompiledStatement> {
  if (text.includes('\u0000')) throw new BodyError('The statement must not contain the NUL character');
  const names = [...options.params, AUTH_UID];
  const normalized = await normalize(text, names);
  const stmt = await parseOne(normalized);
  const [kind, node] = Object.entries(stmt)[0] ?? [];
  if (kind === 'SelectStmt') return { kind: 'read', body: await compileBody(text, options) };
  const op = WRITES[kind as keyof typeof WRITES];
  if (!op || !isTree(node)) throw new BodyError('A SQL function holds one SELECT, INSERT, UPDATE or DELETE');
  const tokens = await tokensOf(normalized);
  return { kind: 'write', plan: await planWrite(op, node, tokens, names, options) };
}

function targetOf(node: Tree, options: CompileOptions): { table: string; ref: string } {
  const relation = isTree(node.relation) ? node.relation : {};
  const relname = String(relation.relname ?? '');
  if (relation.schemaname || relation.catalogname) throw new BodyError(`Name tables without a schema (${relname})`);
  // libpg_query leaves out a false flag: ONLY shows as no `inh`.
  if (relation.inh !== true) throw new BodyError('ONLY is not supported in a SQL function');
  const table = options.tableNamed(relname);
  if (!table) throw new BodyError(`The statement writes ${relname}, which is not one of your tables`);
  const alias = isTree(relation.alias) ? relation.alias.aliasname : undefined;
  // The selection names the target as the body compiler aliases it: its alias as written, else "<name as written>".
  return { table, ref: typeof alias === 'string' ? alias : `"${relname}"` };
}

function returningOf(node: Tree): ReturningColumn[] | 'all' | null {
  const clause = isTree(node.returningClause) ? node.returningClause : null;
  const items = Array.isArray(clause?.exprs)
    ? clause.exprs
    : Array.isArray(node.returningList)
      ? node.returningList
      : [];
  if (items.length === 0) return null;
  const columns: ReturningColumn[] = [];
  for (const item of items) {
    const target = isTree(item) && isTree(item.ResTarget) ? item.ResTarget : {};
    const ref = isTree(target.val) && isTree(target.val.ColumnRef) ? target.val.ColumnRef : null;
    const fields = Array.isArray(ref?.fields) ? ref.fields : [];
    const last = fields.at(-1);
    if (isTree(last) && isTree(last.A_Star) && items.length === 1 && fields.length === 1) return 'all';
    const column = isTree(last) && isTree(last.String) ? last.String.sval : undefined;
    if (!ref || typeof column !== 'string' || fields.length > 2) {
      throw new BodyError("RETURNING takes the written table's columns (or *), not expressions");
    }
    columns.push({ column, as: typeof target.name === 'string' ? target.name : column });
  }
  return columns;
}

function namesOf(list: unknown, what: string): string[] {
  if (!Array.isArray(list)) return [];
  return list.map((item) => {
    const target = isTree(item) && isTree(item.ResTarget) ? item.ResTarget : {};
    if (typeof target.name !== 'string' || target.indirection) throw new BodyError(`${what} takes plain column names`);
    return target.name;
  });
}

async function planWrite(
  op: WritePlan['op'],
  node: Tree,
  tokens: ScanToken[],
  names: readonly string[],
  options: CompileOptions,
): Promise<WritePlan> {
  if (node.withClause) throw new BodyError('WITH before an INSERT, UPDATE or DELETE is not supported');
  if (node.onConflictClause) throw new BodyError('ON CONFLICT is not supported in a SQL function');
  if (node.override && node.override !== 'OVERRIDING_NOT_SET') throw new BodyError('OVERRIDING is not supported');
  const { table, ref } = targetOf(node, options);
  const returning = returningOf(node);
  const clauses = splitClauses(tokens);
  const text = (from: number, to: number) => textOf(tokens.slice(from, to), names);
  const where = clauses.where ? ` WHERE ${text(clauses.where.from, clauses.where.to)}` : '';
  let columns: string[] = [];
  let selection: string;
  if (op === 'insert') {
    columns = namesOf(node.cols, 'An INSERT');
    if (columns.length === 0) throw new BodyError('Name the columns an INSERT fills: INSERT INTO t (a, b) …');
    if (!node.selectStmt) throw new BodyError('An INSERT needs VALUES or a SELECT');
    const source = sourceOf(tokens, clauses.end);
    const list = columns.map((_, i) => selectionColumn(i)).join(', ');
    selection = `WITH rpc_source (${list}) AS (${text(source.from, source.to)}) SELECT ${list} FROM rpc_source`;
  } else if (op === 'update') {
    columns = namesOf(node.targetList, 'SET');
    const sets = clauses.set ? assignments(tokens, clauses.set.from, clauses.set.to) : [];
    if (sets.length !== columns.length) throw new BodyError('SET takes one column = value per assignment');
    const values = sets.map((set, i) => `(${text(set.from, set.to)}) AS ${selectionColumn(i)}`);
    const from = clauses.from ? `, ${text(clauses.from.from, clauses.from.to)}` : '';
    selection = `SELECT ${ref}.id AS rpc_id, ${values.join(', ')} FROM ${text(clauses.target.from, clauses.target.to)}${from}${where}`;
  } else {
    const using = clauses.using ? `, ${text(clauses.using.from, clauses.using.to)}` : '';
    selection = `SELECT ${ref}.id AS rpc_id FROM ${text(clauses.target.from, clauses.target.to)}${using}${where}`;
  }
  return { op, table, columns, selection: await compileBody(selection, options), returning };
}

interface Span {
  from: number;
  to: number;
}

interface Clauses {
  target: Span;
  set?: Span;
  from?: Span;
  using?: Span;
  where?: Span;
  /** Where the statement ends: its RETURNING, else its last token. */
  end: number;
}

const CLAUSES = new Set(['set', 'from', 'using', 'where', 'returning']);

// The statement's clauses from its top-level keywords (a subquery or a call is in parentheses). `IS DISTINCT FROM`
// is an operator, not a clause.
function splitClauses(tokens: ScanToken[]): Clauses {
  const starts: Array<{ name: string; at: number }> = [];
  let depth = 0;
  tokens.forEach((token, at) => {
    if (token.text === '(') depth++;
    else if (token.text === ')') depth--;
    const word = token.text.toLowerCase();
    if (depth !== 0 || token.keywordKind === 0 || !CLAUSES.has(word)) return;
    if (word === 'from' && tokens[at - 1]?.text.toLowerCase() === 'distinct') return;
    // DELETE FROM t: that FROM names the target.
    if (word === 'from' && at === 1) return;
    starts.push({ name: word, at });
  });
  const end = starts.find((s) => s.name === 'returning')?.at ?? tokens.length;
  const targetFrom = tokens[0]?.text.toLowerCase() === 'update' ? 1 : 2;
  const clauses: Clauses = { target: { from: targetFrom, to: starts[0]?.at ?? tokens.length }, end };
  starts.forEach((start, i) => {
    const span = { from: start.at + 1, to: starts[i + 1]?.at ?? tokens.length };
    if (start.name !== 'returning') clauses[start.name as 'set' | 'from' | 'using' | 'where'] = span;
  });
  return clauses;
}

// An INSERT's VALUES or SELECT: what follows its column list, up to RETURNING.
function sourceOf(tokens: ScanToken[], end: number): Span {
  const open = tokens.findIndex((t) => t.text === '(');
  let depth = 0;
  for (let at = open; at < end; at++) {
    const text = tokens[at]?.text;
    if (text === '(') depth++;
    else if (text === ')' && --depth === 0) return { from: at + 1, to: end };
  }
  throw new BodyError('An INSERT needs VALUES or a SELECT');
}

// SET's assignments: the value of each `column = value`, split at top-level commas.
function assignments(tokens: ScanToken[], from: number, to: number): Span[] {
  const spans: Span[] = [];
  let depth = 0;
  let start = from;
  for (let at = from; at <= to; at++) {
    const text = tokens[at]?.text;
    if (at < to && text === '(') depth++;
    else if (at < to && text === ')') depth--;
    if (at === to || (depth === 0 && text === ',')) {
      const equals = tokens.findIndex((t, i) => i >= start && i < at && t.text === '=');
      if (equals === -1) throw new BodyError('SET takes one column = value per assignment');
      spans.push({ from: equals + 1, to: at });
      start = at + 1;
    }
  }
  return spans;
}

// Tokens back to text, `$n` back to the `:name` placeholders the body compiler reads.
function textOf(tokens: ScanToken[], names: readonly string[]): string {
  return tokens
    .map((t) => (t.tokenName === 'PARAM' ? `:${names[Number(t.text.slice(1)) - 1] ?? ''}` : t.text))
    .join(' ');
}

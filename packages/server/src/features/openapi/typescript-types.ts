import type { ColumnDefinition, ColumnType, TableSchema } from '@basalt/shared';

// The TypeScript `Database` type supabase-js takes (`createClient<Database>(…)`), generated from one account's
// tables as `supabase gen types typescript` generates it from a PostgreSQL schema: per table its Row, Insert and
// Update shapes and its Relationships (one per reference column, named like the foreign key PostgREST shows),
// so that `select('*, author:authors(name)')` is typed end to end; and per SQL function its Args and Returns. Pure: the same tables give the same text.

/** TypeScriptTable is what the generator needs of a table. */
export interface TypeScriptTable {
  name: string;
  schema: TableSchema;
}

/** TypeScriptFunction is what the generator needs of a SQL function: its arguments and what it returns. */
export interface TypeScriptFunction {
  name: string;
  /** optional: the parameter has a default, so a call may leave it out. */
  params: Array<{ name: string; type: ColumnType; optional?: boolean }>;
  /** A scalar's type, or the columns of its row(s). */
  returns: {
    kind: 'scalar' | 'row' | 'rows';
    type?: ColumnType | undefined;
    columns: Array<{ name: string; type: ColumnType }>;
  };
}

const TS_TYPE: Record<ColumnType, string> = {
  text: 'string',
  number: 'number',
  boolean: 'boolean',
  date: 'string',
  date_only: 'string',
  json: 'Json',
  array: 'Json[]',
};

const SYSTEM: Array<[string, ColumnDefinition]> = [
  ['id', { type: 'number', required: true, unique: true }],
  ['created_at', { type: 'date', required: true, unique: false }],
  ['updated_at', { type: 'date', required: true, unique: false }],
];

// Names are identifiers already (letters, digits, underscores), so they need no quoting.
function columns(schema: TableSchema): Array<[string, ColumnDefinition]> {
  const system = new Set(SYSTEM.map(([name]) => name));
  return [...SYSTEM, ...Object.entries(schema).filter(([name]) => !system.has(name))];
}

const isSystem = (name: string) => name === 'id' || name === 'created_at' || name === 'updated_at';

function shape(schema: TableSchema, mode: 'Row' | 'Insert' | 'Update', pad: string): string {
  const lines = columns(schema).map(([name, c]) => {
    const type = c.required ? TS_TYPE[c.type] : `${TS_TYPE[c.type]} | null`;
    // A column with a default may be left out of an insert, as Supabase's generated types have it.
    const defaulted = c.default !== undefined && c.default !== null;
    const optional = mode === 'Update' || (mode === 'Insert' && (!c.required || defaulted || isSystem(name)));
    return `${pad}  ${name}${optional ? '?' : ''}: ${type}`;
  });
  return `{\n${lines.join('\n')}\n${pad}}`;
}

function relationships(table: TypeScriptTable, pad: string): string {
  const refs = Object.entries(table.schema).filter(([, c]) => c.references);
  if (refs.length === 0) return '[]';
  const items = refs.map(([column, c]) =>
    [
      `${pad}  {`,
      `${pad}    foreignKeyName: "${table.name}_${column}_fkey"`,
      `${pad}    columns: ["${column}"]`,
      `${pad}    isOneToOne: ${c.unique ? 'true' : 'false'}`,
      `${pad}    referencedRelation: "${c.references?.table}"`,
      `${pad}    referencedColumns: ["id"]`,
      `${pad}  },`,
    ].join('\n'),
  );
  return `[\n${items.join('\n')}\n${pad}]`;
}

// One signature as `supabase gen types` writes it: Args (Record<PropertyKey, never> without any; a parameter with a
// default optional) and Returns.
function signatureType(fn: TypeScriptFunction): string {
  const args =
    fn.params.length === 0
      ? 'Record<PropertyKey, never>'
      : `{ ${fn.params.map((p) => `${p.name}${p.optional ? '?' : ''}: ${TS_TYPE[p.type]}`).join('; ')} }`;
  const { kind, type, columns } = fn.returns;
  const row = `{ ${columns.map((c) => `${c.name}: ${TS_TYPE[c.type]} | null`).join('; ')} }`;
  const returns = kind === 'scalar' ? TS_TYPE[type ?? 'text'] : kind === 'row' ? row : `${row}[]`;
  return `{ Args: ${args}; Returns: ${returns} }`;
}

// A function, or its overloads as a union of signatures (as the CLI writes them).
function functionType(name: string, overloads: TypeScriptFunction[], pad: string): string {
  if (overloads.length === 1) return `      ${name}: ${signatureType(overloads[0] as TypeScriptFunction)}`;
  return [`      ${name}:`, ...overloads.map((fn) => `${pad}| ${signatureType(fn)}`)].join('\n');
}

/** buildTypeScriptTypes writes the `Database` type of an account's tables (sorted by name, like the CLI). */
export function buildTypeScriptTypes(tables: TypeScriptTable[], functions: TypeScriptFunction[] = []): string {
  const pad = '        ';
  const sorted = [...tables].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const body = sorted
    .map((t) =>
      [
        `      ${t.name}: {`,
        `${pad}Row: ${shape(t.schema, 'Row', pad)}`,
        `${pad}Insert: ${shape(t.schema, 'Insert', pad)}`,
        `${pad}Update: ${shape(t.schema, 'Update', pad)}`,
        `${pad}Relationships: ${relationships(t, pad)}`,
        '      }',
      ].join('\n'),
    )
    .join('\n');
  const never = '{\n      [_ in never]: never\n    }';
  const fns = [...functions].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const byName = new Map<string, TypeScriptFunction[]>();
  for (const fn of fns) byName.set(fn.name, [...(byName.get(fn.name) ?? []), fn]);
  const fnBody = [...byName].map(([name, overloads]) => functionType(name, overloads, pad)).join('\n');
  return `// Generated by Basalt from your tables: the Database type for createClient<Database>(url, key).
export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[]

export type Database = {
  public: {
    Tables: ${sorted.length === 0 ? never : `{\n${body}\n    }`}
    Views: ${never}
    Functions: ${fns.length === 0 ? never : `{\n${fnBody}\n    }`}
    Enums: ${never}
    CompositeTypes: ${never}
  }
}

type PublicSchema = Database["public"]

export type Tables<T extends keyof PublicSchema["Tables"]> = PublicSchema["Tables"][T]["Row"]
export type TablesInsert<T extends keyof PublicSchema["Tables"]> = PublicSchema["Tables"][T]["Insert"]
export type TablesUpdate<T extends keyof PublicSchema["Tables"]> = PublicSchema["Tables"][T]["Update"]
`;
}

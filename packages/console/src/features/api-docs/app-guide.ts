import { DEFAULT_TABLE_ACCESS, type TableResponse, usesOwnRows } from '@basalt/shared';
import { jsLiteral } from './code-literals';
import { type SampleRecord, samplePatch, sampleRecord } from './record-samples';

// The /documentation guide's snippets (issue "Apps with their own users"): building an app on Basalt with the
// unmodified supabase-js, filled with the caller's real URL, app anon key and tables. Pure, so it is tested
// without a browser. The service key is never written into a snippet: it belongs on a server, read from the
// environment.

/** GuideInput is what the snippets are filled with. */
export interface GuideInput {
  url: string;
  anonKey: string;
  /** The table the query snippets use (the first one with own-rows rules, else the first), or null. */
  table: TableResponse | null;
}

/** GuideSnippets are the code blocks of the guide, in its order. */
export interface GuideSnippets {
  install: string;
  connect: string;
  signUp: string;
  signIn: string;
  session: string;
  signOut: string;
  select: string;
  count: string;
  insert: string;
  update: string;
  remove: string;
  server: string;
  rules: string;
}

/** guideTable picks the table the guide's queries use: the first with own-rows rules, else the first one. */
export function guideTable(tables: TableResponse[]): TableResponse | null {
  return tables.find((table) => usesOwnRows(table.access ?? DEFAULT_TABLE_ACCESS)) ?? tables[0] ?? null;
}

// The columns the app itself sends: the owner column is Basalt's to fill in.
function withoutOwner(record: SampleRecord, table: TableResponse): SampleRecord {
  const owner = table.access?.ownerColumn;
  if (!owner || !usesOwnRows(table.access ?? DEFAULT_TABLE_ACCESS)) return record;
  const { [owner]: _owner, ...rest } = record;
  return rest;
}

/** guideSnippets fills the guide's code blocks. */
export function guideSnippets({ url, anonKey, table }: GuideInput): GuideSnippets {
  const name = table?.name ?? 'todos';
  const schema = table?.schema ?? { title: { type: 'text', required: true, unique: false } };
  const access = table?.access ?? DEFAULT_TABLE_ACCESS;
  const row = table ? withoutOwner(sampleRecord(schema), table) : { title: 'Buy milk' };
  const patch = table ? withoutOwner(samplePatch(schema), table) : { title: 'Buy oat milk' };
  const from = `supabase.from(${JSON.stringify(name)})`;
  return {
    install: 'npm install @supabase/supabase-js',
    connect: [
      "import { createClient } from '@supabase/supabase-js';",
      '',
      "// Your app's URL and anon key: safe in a browser, the access rules decide what it may do.",
      `export const supabase = createClient(${JSON.stringify(url)}, ${JSON.stringify(anonKey)});`,
    ].join('\n'),
    signUp: [
      'const { data, error } = await supabase.auth.signUp({',
      "  email: 'ada@example.com',",
      "  password: 'a long passphrase',",
      '});',
      '// data.session is null while the email waits for its confirmation link (App auth settings).',
    ].join('\n'),
    signIn: [
      'const { data, error } = await supabase.auth.signInWithPassword({',
      "  email: 'ada@example.com',",
      "  password: 'a long passphrase',",
      '});',
      "if (error) console.error(error.code); // e.g. 'invalid_credentials', 'email_not_confirmed'",
    ].join('\n'),
    session: [
      'const { data: { user } } = await supabase.auth.getUser();',
      'supabase.auth.onAuthStateChange((event, session) => {',
      "  // 'SIGNED_IN', 'TOKEN_REFRESHED', 'SIGNED_OUT', …",
      '});',
    ].join('\n'),
    signOut: 'await supabase.auth.signOut();',
    select: [
      `const { data, error } = await ${from}`,
      "  .select('*')",
      "  .order('id', { ascending: false })",
      '  .range(0, 19);',
      access.select === 'own'
        ? "// Only the signed-in user's own rows come back."
        : `// Rows the "${name}" read rule lets this user see.`,
    ].join('\n'),
    count: [`const { count } = await ${from}`, "  .select('*', { count: 'exact', head: true });"].join('\n'),
    insert: [
      `const { data, error } = await ${from}`,
      `  .insert(${jsLiteral(row, '  ', 10)})`,
      '  .select()',
      '  .single();',
      ...(usesOwnRows(access) && access.ownerColumn
        ? [`// Basalt fills in ${access.ownerColumn} with the user's id; another id is refused (42501).`]
        : []),
    ].join('\n'),
    update: [
      `const { data, error } = await ${from}`,
      `  .update(${jsLiteral(patch, '  ', 10)})`,
      "  .eq('id', 1)",
      '  .select();',
    ].join('\n'),
    remove: [`const { error } = await ${from}`, '  .delete()', "  .eq('id', 1);"].join('\n'),
    server: [
      "import { createClient } from '@supabase/supabase-js';",
      '',
      '// On your server only: the service key bypasses every access rule.',
      `const admin = createClient(${JSON.stringify(url)}, process.env.BASALT_SERVICE_KEY);`,
      '',
      `const { data } = await admin.from(${JSON.stringify(name)}).select('*');`,
      'const { data: users } = await admin.auth.admin.listUsers();',
    ].join('\n'),
    rules: [
      "// PATCH /api/tables/<id> (or the table's Access tab)",
      JSON.stringify(
        { access: { select: 'own', insert: 'own', update: 'own', delete: 'own', ownerColumn: 'owner' } },
        null,
        2,
      ),
    ].join('\n'),
  };
}

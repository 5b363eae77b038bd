import type { TableResponse } from '@basalt/shared';

// Embedding examples for the account's own references (docs/data-api.md, "Related rows"): for each reference
// column, the many-to-one read (each post with its author) and the one-to-many read (each author with a count
// of its posts), as supabase-js calls and as the /rest/v1 query they send. Pure, so it is tested without a browser.

/** EMBED_EXAMPLES_MAX is how many reference columns get examples (the first ones, in table order). */
export const EMBED_EXAMPLES_MAX = 3;

/** EmbedExample is one reference column's examples. */
export interface EmbedExample {
  /** "posts.author_id → authors" */
  title: string;
  js: string;
  curl: string;
}

// What the embedded row is called in the answer: the column without its _id ending (author_id → author).
const aliasOf = (column: string, target: string) => {
  const alias = column.replace(/_?id$/i, '');
  return alias === '' || alias.toLowerCase() === target.toLowerCase() ? `${column}_row` : alias;
};

const firstText = (table: TableResponse | undefined) =>
  Object.entries(table?.schema ?? {}).find(([, definition]) => definition.type === 'text')?.[0];

/** embedExamples lists the examples for the first reference columns of the tables, or none. */
export function embedExamples(tables: readonly TableResponse[], url: string): EmbedExample[] {
  const byName = new Map(tables.map((t) => [t.name.toLowerCase(), t]));
  const references = tables.flatMap((table) =>
    Object.entries(table.schema).flatMap(([column, definition]) =>
      definition.references ? [{ table, column, target: definition.references }] : [],
    ),
  );
  return references.slice(0, EMBED_EXAMPLES_MAX).map(({ table, column, target }) => {
    const parent = byName.get(target.table.toLowerCase());
    const parentName = parent?.name ?? target.table;
    const label = target.label ?? firstText(parent);
    const own = firstText(table);
    // `!column` names the relationship, so the embed stays unambiguous when two columns reference one table.
    const manyToOne = `id, ${own ? `${own}, ` : ''}${aliasOf(column, parentName)}:${parentName}!${column}(id${label ? `, ${label}` : ''})`;
    const oneToMany = `id${label ? `, ${label}` : ''}, ${table.name}!${column}(count)`;
    return {
      title: `${table.name}.${column} → ${parentName}`,
      js: [
        `// Each ${table.name} row with the ${parentName} row it references (null when empty)`,
        `const { data } = await supabase.from(${JSON.stringify(table.name)}).select(${JSON.stringify(manyToOne)});`,
        '',
        `// Each ${parentName} row with how many ${table.name} rows reference it`,
        `const { data: counts } = await supabase.from(${JSON.stringify(parentName)}).select(${JSON.stringify(oneToMany)});`,
      ].join('\n'),
      curl: [
        `curl "${url}/rest/v1/${table.name}?select=${encodeURIComponent(manyToOne.replaceAll(', ', ',')).replaceAll('%2C', ',').replaceAll('%3A', ':')}" \\`,
        '  -H "apikey: $ANON_KEY" -H "Authorization: Bearer $USER_TOKEN"',
      ].join('\n'),
    };
  });
}

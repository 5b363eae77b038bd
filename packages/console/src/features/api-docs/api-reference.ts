import type { ColumnType, TableResponse, TableSchema } from '@basalt/shared';

// The API tab's reference for one table: the public record API with an API key,
// the PostgREST-compatible /rest/v1 with a user's token, and the supabase-js calls. "Copy API Reference"
// copies it as Markdown.

/** EndpointDoc is one endpoint: method, path and what it does. */
export interface EndpointDoc {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  description: string;
}

/** restEndpoints are the PostgREST-compatible endpoints for a table (apikey header and a user's token). */
export function restEndpoints(name: string): EndpointDoc[] {
  const base = `/rest/v1/${name}`;
  return [
    { method: 'GET', path: `${base}?select=*`, description: 'Select records (filters, order, limit, offset)' },
    { method: 'POST', path: base, description: 'Insert one record or an array of records' },
    { method: 'PATCH', path: `${base}?id=eq.{id}`, description: 'Update the records that match' },
    { method: 'DELETE', path: `${base}?id=eq.{id}`, description: 'Delete the records that match' },
  ];
}

const SAMPLES: Record<ColumnType, unknown> = {
  text: 'Some text',
  number: 42,
  boolean: true,
  date: '2025-05-01T10:00:00.000Z',
  date_only: '2025-05-01',
  json: { key: 'value' },
  array: ['first', 'second'],
};

/** exampleRecord is a body with a sample value for every user column. */
export function exampleRecord(schema: TableSchema): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([name]) => name !== 'id')
      .map(([name, definition]) => [name, SAMPLES[definition.type]]),
  );
}

/** supabaseSnippet is the supabase-js calls for a table. */
export function supabaseSnippet(name: string, schema: TableSchema): string {
  const body = JSON.stringify(exampleRecord(schema));
  return [
    `const { data } = await supabase.from('${name}').select('*').order('id').range(0, 24);`,
    `const { data: created } = await supabase.from('${name}').insert(${body}).select();`,
    `await supabase.from('${name}').update({ /* fields */ }).eq('id', 1);`,
    `await supabase.from('${name}').delete().eq('id', 1);`,
  ].join('\n');
}

/** curlSnippet lists a table's records with an API key. */
export function curlSnippet(name: string, origin: string): string {
  return `curl -H "Authorization: Bearer $BASALT_API_KEY" "${origin}/api/table/${name}?limit=10"`;
}

const endpointLines = (endpoints: readonly EndpointDoc[], origin: string) =>
  endpoints.map((e) => `| ${e.method} | \`${origin}${e.path}\` | ${e.description} |`);

/**
 * buildApiReference is the Markdown reference of a table's API that "Copy API Reference" copies; `endpoints` are
 * its record API endpoints as the server's OpenAPI document lists them.
 */
export function buildApiReference(table: TableResponse, origin: string, endpoints: readonly EndpointDoc[]): string {
  const columns = Object.entries(table.schema).map(([name, c]) => {
    const flags = [c.required ? 'required' : '', c.unique ? 'unique' : ''].filter(Boolean).join(', ');
    return `| \`${name}\` | ${c.type} | ${flags || '—'} |`;
  });
  return [
    `# ${table.name} API`,
    ...(table.description ? ['', table.description] : []),
    '',
    '## Columns',
    '',
    '| Column | Type | Flags |',
    '| --- | --- | --- |',
    ...columns,
    '',
    'Every record also has `created_at` and `updated_at`.',
    '',
    '## Record API',
    '',
    'Authenticate with an API key from the API page: `Authorization: Bearer <API key>`.',
    '',
    '| Method | Endpoint | Description |',
    '| --- | --- | --- |',
    ...endpointLines(endpoints, origin),
    '',
    'Example body:',
    '',
    '```json',
    JSON.stringify(exampleRecord(table.schema), null, 2),
    '```',
    '',
    '```sh',
    curlSnippet(table.name, origin),
    '```',
    '',
    '## REST API (PostgREST-compatible)',
    '',
    "Send the `apikey` header and a signed-in user's token: `Authorization: Bearer <access token>`.",
    '',
    '| Method | Endpoint | Description |',
    '| --- | --- | --- |',
    ...endpointLines(restEndpoints(table.name), origin),
    '',
    '## supabase-js',
    '',
    '```js',
    supabaseSnippet(table.name, table.schema),
    '```',
    '',
  ].join('\n');
}

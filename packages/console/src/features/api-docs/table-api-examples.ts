import type { TableSchema } from '@basalt/shared';
import { curlJson } from './code-literals';
import { recordsUrl } from './record-api-examples';
import { sampleRecord, sampleValue, userColumns } from './record-samples';

// The Table API page's Examples: how to page, sort and filter one table's records
// and add one, as curl commands with the table's real columns. Filters are PostgREST's (docs/data-api.md).

/** QueryExample is one titled command. */
export interface QueryExample {
  id: 'page' | 'sort' | 'filter' | 'create';
  title: string;
  description: string;
  code: string;
}

const AUTH = '-H "Authorization: Bearer $BASALT_API_KEY"';

/** filterFor is a filter on the table's first filterable column, or on created_at when it has none. */
export function filterFor(schema: TableSchema): { column: string; filter: string } {
  for (const [column, { type }] of userColumns(schema)) {
    const value = sampleValue(column, type);
    if (type === 'text' && typeof value === 'string') return { column, filter: `eq.${encodeURIComponent(value)}` };
    if (type === 'number') return { column, filter: `gte.${String(value)}` };
    if (type === 'boolean') return { column, filter: 'is.true' };
    if (type === 'date') return { column, filter: 'gte.2025-01-01' };
  }
  return { column: 'created_at', filter: 'gte.2025-01-01' };
}

/** sortColumn is the column the sort example orders by: the first text, number or date column, else created_at. */
export function sortColumn(schema: TableSchema): string {
  const sortable = userColumns(schema).find(([, { type }]) => type === 'text' || type === 'number' || type === 'date');
  return sortable?.[0] ?? 'created_at';
}

/** tableQueryExamples are the Examples tab's commands for one table. */
export function tableQueryExamples(tableName: string, schema: TableSchema, origin: string): QueryExample[] {
  const url = recordsUrl(origin, tableName);
  const { column, filter } = filterFor(schema);
  const orderBy = sortColumn(schema);
  return [
    {
      id: 'page',
      title: 'Page through records',
      description:
        'With -i, curl prints the headers too: X-Total-Count is how many records match, X-Page-Limit and X-Page-Offset the page you got. Raise offset by limit for the next page.',
      code: `curl -i "${url}?limit=20&offset=0" \\\n  ${AUTH}`,
    },
    {
      id: 'sort',
      title: 'Sort',
      description: `orderBy names a column (default id); order is asc or desc. This lists records by ${orderBy}, highest first.`,
      code: `curl "${url}?orderBy=${orderBy}&order=desc&limit=10" \\\n  ${AUTH}`,
    },
    {
      id: 'filter',
      title: 'Filter',
      description: `Add column=operator.value pairs: eq, neq, gt, gte, lt, lte, like, ilike, in and is. Several filters must all match; or=(…) matches any. This one filters on ${column}.`,
      code: `curl "${url}?${column}=${filter}" \\\n  ${AUTH}`,
    },
    {
      id: 'create',
      title: 'Add a record',
      description: "POST the table's fields as JSON; the answer is the new record with its id.",
      code: [
        `curl -X POST "${url}" \\`,
        `  ${AUTH} \\`,
        '  -H "Content-Type: application/json" \\',
        `  -d ${curlJson(sampleRecord(schema))}`,
      ].join('\n'),
    },
  ];
}

/** authHeaderExample is the request the Authentication tab shows: listing a table with an API key. */
export function authHeaderExample(origin: string, tableName: string): string {
  return `curl "${recordsUrl(origin, tableName)}?limit=10" \\\n  ${AUTH}`;
}

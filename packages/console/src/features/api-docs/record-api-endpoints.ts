import type { TableSchema } from '@basalt/shared';
import type { EndpointDoc } from './api-reference';
import { curlJson } from './code-literals';
import { recordsUrl } from './record-api-examples';
import {
  type SampleRecord,
  type SampleValue,
  samplePatch,
  sampleRecord,
  sampleStoredRecord,
  userColumns,
} from './record-samples';

// The Record API page's Records tab: one
// entry per endpoint of a table, with its parameters, an example request in cURL and an example answer.

/** ParameterDoc is one query or path parameter. */
export interface ParameterDoc {
  name: string;
  where: 'path' | 'query';
  description: string;
}

/** RecordEndpointDoc is one endpoint of a table, documented. */
export interface RecordEndpointDoc extends EndpointDoc {
  id: 'list' | 'get' | 'create' | 'replace' | 'update' | 'delete';
  title: string;
  parameters: ParameterDoc[];
  /** body is the example request body of a write. */
  body?: SampleRecord;
  curl: string;
  response: { status: number; headers?: Record<string, string>; body: SampleValue };
}

const ID_PARAMETER: ParameterDoc = { name: 'id', where: 'path', description: "The record's id (a whole number)." };

/** LIST_PARAMETERS are the list endpoint's query parameters. */
export const LIST_PARAMETERS: readonly ParameterDoc[] = [
  { name: 'limit', where: 'query', description: 'How many records to return: default 100, at most 1000.' },
  { name: 'offset', where: 'query', description: 'How many records to skip: default 0.' },
  { name: 'orderBy', where: 'query', description: 'The column to sort by: default id.' },
  { name: 'order', where: 'query', description: 'asc (the default) or desc.' },
  {
    name: '<column>',
    where: 'query',
    description: 'Filters such as qty=gt.5 or status=eq.active (eq, neq, gt, gte, lt, lte, like, ilike, in, is).',
  },
];

const AUTH = '-H "Authorization: Bearer $BASALT_API_KEY"';
const JSON_HEADER = '-H "Content-Type: application/json"';

function curlWrite(method: string, url: string, body: SampleRecord): string {
  return [`curl -X ${method} "${url}" \\`, `  ${AUTH} \\`, `  ${JSON_HEADER} \\`, `  -d ${curlJson(body)}`].join('\n');
}

/** recordEndpointDocs documents the six endpoints of a table for the Records tab's accordion. */
export function recordEndpointDocs(tableName: string, schema: TableSchema, origin: string): RecordEndpointDoc[] {
  const base = `/api/table/${encodeURIComponent(tableName)}`;
  const url = recordsUrl(origin, tableName);
  const created = sampleRecord(schema);
  const patch = samplePatch(schema);
  const stored = sampleStoredRecord(schema);
  const hasColumns = userColumns(schema).length > 0;
  return [
    {
      id: 'list',
      method: 'GET',
      path: base,
      title: 'List records',
      description: 'Returns a page of records as an array; the headers tell the total and the page.',
      parameters: [...LIST_PARAMETERS],
      curl: `curl "${url}?limit=10&offset=0&orderBy=id&order=asc" \\\n  ${AUTH}`,
      response: {
        status: 200,
        headers: { 'X-Total-Count': '1', 'X-Page-Limit': '10', 'X-Page-Offset': '0' },
        body: [stored],
      },
    },
    {
      id: 'get',
      method: 'GET',
      path: `${base}/{id}`,
      title: 'Get a record',
      description: 'Returns one record, or 404 when the table has no record with that id.',
      parameters: [ID_PARAMETER],
      curl: `curl "${url}/1" \\\n  ${AUTH}`,
      response: { status: 200, body: stored },
    },
    {
      id: 'create',
      method: 'POST',
      path: base,
      title: 'Create a record',
      description: hasColumns
        ? "Send the table's fields as JSON; required fields must be present. Answers 201 with the new record."
        : 'This table has no fields of its own yet: send an empty object. Answers 201 with the new record.',
      parameters: [],
      body: created,
      curl: curlWrite('POST', url, created),
      response: { status: 201, body: stored },
    },
    {
      id: 'replace',
      method: 'PUT',
      path: `${base}/{id}`,
      title: 'Replace a record',
      description: 'Replaces every field: a field left out becomes null (refused when it is required).',
      parameters: [ID_PARAMETER],
      body: created,
      curl: curlWrite('PUT', `${url}/1`, created),
      response: { status: 200, body: stored },
    },
    {
      id: 'update',
      method: 'PATCH',
      path: `${base}/{id}`,
      title: 'Update a record',
      description: 'Changes only the fields sent; the others keep their values.',
      parameters: [ID_PARAMETER],
      body: patch,
      curl: curlWrite('PATCH', `${url}/1`, patch),
      response: { status: 200, body: sampleStoredRecord(schema, 1, { ...created, ...patch }) },
    },
    {
      id: 'delete',
      method: 'DELETE',
      path: `${base}/{id}`,
      title: 'Delete a record',
      description: "Deletes one record; the table's change history can bring it back.",
      parameters: [ID_PARAMETER],
      curl: `curl -X DELETE "${url}/1" \\\n  ${AUTH}`,
      response: { status: 200, body: { success: true, message: 'Record deleted successfully' } },
    },
  ];
}

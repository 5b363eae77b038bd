import type { z } from 'zod';
import type { EndpointDoc } from './api-reference';
import {
  HTTP_METHODS,
  type HttpMethod,
  type JsonSchema,
  type OpenApiDocument,
  type OpenApiOperation,
  type OpenApiParameter,
  type OpenApiRequestBody,
  type OpenApiResponse,
  openApiDocumentSchema,
  parameterSchema,
  requestBodySchema,
  responseSchema,
} from './openapi-document';

// Reading an OpenAPI document for the reference page: local `$ref`s followed (at most MAX_REF_DEPTH deep, so a
// reference cycle ends), operations grouped by their first tag, and JSON Schemas described in one line of text
// ("string (date-time) | null", "Order[]"). Pure functions over the parsed document.

const MAX_REF_DEPTH = 16;
// An enum longer than this is shortened in a type line.
const MAX_ENUM_SHOWN = 6;

/** resolvePointer follows a local JSON pointer ("#/components/schemas/Order") in a document, or gives undefined. */
export function resolvePointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = Reflect.get(node, key);
  }
  return node;
}

/** refName is the last part of a `$ref`: "#/components/schemas/Order" → "Order". */
export function refName(ref: string): string {
  return decodeURIComponent(ref.split('/').pop() ?? ref)
    .replace(/~1/g, '/')
    .replace(/~0/g, '~');
}

/** resolveRef follows an object's `$ref` chain and parses what it finds; undefined when it leads nowhere. */
export function resolveRef<T extends { $ref?: string }>(
  document: OpenApiDocument,
  value: T,
  schema: z.ZodType<T>,
): T | undefined {
  let current: T = value;
  for (let depth = 0; current.$ref !== undefined; depth++) {
    if (depth >= MAX_REF_DEPTH) return undefined;
    const parsed = schema.safeParse(resolvePointer(document, current.$ref));
    if (!parsed.success) return undefined;
    current = parsed.data;
  }
  return current;
}

/** parseOpenApiDocument checks a downloaded document; it throws with zod's message when it is not OpenAPI 3. */
export function parseOpenApiDocument(raw: unknown): OpenApiDocument {
  return openApiDocumentSchema.parse(raw);
}

/** derefSchema follows a schema's `$ref` chain (true, "any", when it leads nowhere). */
export function derefSchema(document: OpenApiDocument, schema: JsonSchema | boolean): JsonSchema | boolean {
  let current = schema;
  for (let depth = 0; typeof current === 'object' && current.$ref !== undefined; depth++) {
    if (depth >= MAX_REF_DEPTH) return true;
    const target = resolvePointer(document, current.$ref);
    if (typeof target === 'boolean') return target;
    if (typeof target !== 'object' || target === null) return true;
    current = { ...target };
  }
  return current;
}

function wrapUnion(label: string): string {
  return label.includes(' | ') || label.includes(' & ') ? `(${label})` : label;
}

function typeLabel(document: OpenApiDocument, schema: JsonSchema, type: string, depth: number): string {
  if (type === 'null') return type;
  if (type === 'array') {
    return schema.items === undefined ? 'array' : `${wrapUnion(schemaLabel(document, schema.items, depth + 1))}[]`;
  }
  return schema.format ? `${type} (${schema.format})` : type;
}

/** schemaLabel describes a schema in one line: its type, a `$ref`'s name, an enum's values, unions. */
export function schemaLabel(document: OpenApiDocument, schema: JsonSchema | boolean, depth = 0): string {
  if (schema === true) return 'any';
  if (schema === false) return 'never';
  if (depth > MAX_REF_DEPTH) return 'any';
  if (schema.$ref !== undefined) return refName(schema.$ref);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) {
    const shown = schema.enum.slice(0, MAX_ENUM_SHOWN).map((value) => JSON.stringify(value));
    return shown.join(' | ') + (schema.enum.length > MAX_ENUM_SHOWN ? ' | …' : '');
  }
  const union = schema.oneOf ?? schema.anyOf;
  if (union) return union.map((member) => schemaLabel(document, member, depth + 1)).join(' | ');
  if (schema.allOf) {
    return schema.allOf.length === 1
      ? schemaLabel(document, schema.allOf[0] as JsonSchema | boolean, depth + 1)
      : schema.allOf.map((member) => wrapUnion(schemaLabel(document, member, depth + 1))).join(' & ');
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const labels = types.map((type) => typeLabel(document, schema, type, depth));
  if (labels.length === 0) labels.push(schema.properties ? 'object' : 'any');
  if (schema.nullable && !labels.includes('null')) labels.push('null');
  return labels.join(' | ');
}

/** SchemaField is one property of an object schema, described for a table row. */
export interface SchemaField {
  name: string;
  type: string;
  required: boolean;
  description?: string;
}

/** schemaFields lists an object schema's properties (through `$ref` and allOf); empty for anything else. */
export function schemaFields(document: OpenApiDocument, schema: JsonSchema | boolean, depth = 0): SchemaField[] {
  const resolved = derefSchema(document, schema);
  if (typeof resolved === 'boolean' || depth > MAX_REF_DEPTH) return [];
  const own = Object.entries(resolved.properties ?? {}).map(([name, property]): SchemaField => {
    const target = derefSchema(document, property);
    const description =
      (typeof property === 'object' ? property.description : undefined) ??
      (typeof target === 'object' ? target.description : undefined);
    return {
      name,
      type: schemaLabel(document, property),
      required: resolved.required?.includes(name) ?? false,
      ...(description ? { description } : {}),
    };
  });
  const inherited = (resolved.allOf ?? []).flatMap((member) => schemaFields(document, member, depth + 1));
  return [...inherited.filter((field) => !own.some((o) => o.name === field.name)), ...own];
}

/** MediaContent is the JSON body of a request or response, when it has one. */
export interface MediaContent {
  mediaType: string;
  schema?: JsonSchema | boolean;
  example?: unknown;
}

/** jsonContent picks the JSON entry of a content map (application/json, then any +json, then the first). */
export function jsonContent(content: Record<string, { schema?: JsonSchema | boolean; example?: unknown }> = {}) {
  const types = Object.keys(content);
  const mediaType = types.find((t) => t === 'application/json') ?? types.find((t) => /[/+]json\b/.test(t)) ?? types[0];
  if (mediaType === undefined) return undefined;
  const entry = content[mediaType];
  return { mediaType, schema: entry?.schema, example: entry?.example } satisfies MediaContent;
}

const METHOD_LABELS: Record<HttpMethod, EndpointDoc['method']> = {
  get: 'GET',
  post: 'POST',
  put: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
};

/** methodLabel is an operation's method as the method badges write it (GET, POST…). */
export function methodLabel(method: HttpMethod): EndpointDoc['method'] {
  return METHOD_LABELS[method];
}

/** OperationEntry is one operation with its path-level and own parameters merged and resolved. */
export interface OperationEntry {
  id: string;
  method: HttpMethod;
  path: string;
  operation: OpenApiOperation;
  parameters: OpenApiParameter[];
  requestBody?: OpenApiRequestBody;
}

/** OperationGroup is the operations under one tag. */
export interface OperationGroup {
  name: string;
  description?: string;
  operations: OperationEntry[];
}

const UNTAGGED = 'Endpoints';

function mergedParameters(
  document: OpenApiDocument,
  pathLevel: OpenApiParameter[] = [],
  own: OpenApiParameter[] = [],
): OpenApiParameter[] {
  const resolve = (parameter: OpenApiParameter) => resolveRef(document, parameter, parameterSchema);
  const byKey = new Map<string, OpenApiParameter>();
  for (const parameter of [...pathLevel, ...own].map(resolve)) {
    if (parameter?.name) byKey.set(`${parameter.in}:${parameter.name}`, parameter);
  }
  return [...byKey.values()];
}

/** operationGroups lists a document's operations grouped by first tag, in the document's tag order. */
export function operationGroups(document: OpenApiDocument): OperationGroup[] {
  const groups = new Map<string, OperationGroup>();
  for (const tag of document.tags ?? []) {
    groups.set(tag.name, {
      name: tag.name,
      ...(tag.description ? { description: tag.description } : {}),
      operations: [],
    });
  }
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const name = operation.tags?.[0] ?? UNTAGGED;
      const group = groups.get(name) ?? { name, operations: [] };
      groups.set(name, group);
      const requestBody = operation.requestBody && resolveRef(document, operation.requestBody, requestBodySchema);
      group.operations.push({
        id: operation.operationId ?? `${method} ${path}`,
        method,
        path,
        operation,
        parameters: mergedParameters(document, item.parameters, operation.parameters),
        ...(requestBody ? { requestBody } : {}),
      });
    }
  }
  return [...groups.values()].filter((group) => group.operations.length > 0);
}

/** ParameterRow is one row of the parameters list: one parameter, or a run of alike ones shown together. */
export interface ParameterRow {
  names: string[];
  in?: string;
  type?: string;
  required: boolean;
  description?: string;
}

// Parameters alike but for their name (a filter per column: "Filter on qty: …") read better as one row.
const NAME_PLACEHOLDER = '{name}';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** parameterRows lists parameters, joining a run of ones that differ only by name (the name then reads {name}). */
export function parameterRows(document: OpenApiDocument, parameters: OpenApiParameter[]): ParameterRow[] {
  const rows: Array<ParameterRow & { key: string }> = [];
  for (const parameter of parameters) {
    const name = parameter.name ?? '';
    const type = parameter.schema === undefined ? undefined : schemaLabel(document, parameter.schema);
    const description = parameter.description?.replace(
      new RegExp(`\\b${escapeRegExp(name)}\\b`, 'g'),
      NAME_PLACEHOLDER,
    );
    const key = JSON.stringify([parameter.in, type, parameter.required ?? false, description]);
    const previous = rows.at(-1);
    if (previous && previous.key === key && description?.includes(NAME_PLACEHOLDER)) {
      previous.names.push(name);
      previous.description = description;
      continue;
    }
    rows.push({
      key,
      names: [name],
      required: parameter.required ?? false,
      ...(parameter.in ? { in: parameter.in } : {}),
      ...(type ? { type } : {}),
      ...(parameter.description ? { description: parameter.description } : {}),
    });
  }
  return rows.map(({ key: _key, ...row }) => row);
}

/** ResponseEntry is one documented response of an operation. */
export interface ResponseEntry {
  status: string;
  description: string;
  /** headers are the names of the headers the response documents. */
  headers: string[];
  content?: MediaContent;
}

/** responsesOf lists an operation's responses by status (success first, `default` last), `$ref`s resolved. */
export function responsesOf(document: OpenApiDocument, operation: OpenApiOperation): ResponseEntry[] {
  const rank = (status: string) => (status === 'default' ? 1000 : Number.parseInt(status.replace(/X/gi, '0'), 10));
  return Object.entries(operation.responses ?? {})
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([status, response]): ResponseEntry => {
      const resolved: OpenApiResponse | undefined = resolveRef(document, response, responseSchema);
      const content = jsonContent(resolved?.content);
      return {
        status,
        description: resolved?.description ?? '',
        headers: Object.keys(resolved?.headers ?? {}),
        ...(content ? { content } : {}),
      };
    });
}

/** securityLines says how a document's security schemes authenticate, one line each. */
export function securityLines(document: OpenApiDocument): string[] {
  return Object.entries(document.components?.securitySchemes ?? {}).map(([name, scheme]) => {
    if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer') {
      return `${name}: Authorization: Bearer <${scheme.bearerFormat ?? 'token'}>`;
    }
    if (scheme.type === 'apiKey') return `${name}: ${scheme.in ?? 'header'} ${scheme.name ?? ''}`.trim();
    return `${name}: ${scheme.type ?? 'custom'}${scheme.scheme ? ` ${scheme.scheme}` : ''}`;
  });
}

/**
 * tableEndpoints lists the record API's endpoints of one table as the server's OpenAPI document describes them
 * (its paths /api/table/{name} and /api/table/{name}/{id}), each with its summary; none for a table the
 * document does not cover (one shared with the caller by another account).
 */
export function tableEndpoints(document: OpenApiDocument, table: string): EndpointDoc[] {
  const base = `/api/table/${table}`;
  const endpoints: EndpointDoc[] = [];
  for (const path of [base, `${base}/{id}`]) {
    const item = document.paths?.[path];
    if (!item) continue;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation) endpoints.push({ method: methodLabel(method), path, description: operation.summary ?? '' });
    }
  }
  return endpoints;
}

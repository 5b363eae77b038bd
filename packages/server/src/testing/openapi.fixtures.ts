import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';

// Checks for generated OpenAPI documents: the document against the official OpenAPI 3.1 schema (every `$ref`
// resolved), and real request and response bodies against the document's own component schemas.

/** ResolvedDocument is a document with every `$ref` replaced by what it points to. */
export type ResolvedDocument = Record<string, unknown>;

/** expectValidOpenApi validates a document and returns it with its references resolved. */
export async function expectValidOpenApi(document: unknown): Promise<ResolvedDocument> {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(document) as Record<string, unknown>);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
  expect(validator.version).toBe('3.1');
  return validator.resolveRefs();
}

/** openApiProblems validates a document and returns its errors (empty when it is valid). */
export async function openApiProblems(document: unknown): Promise<unknown[]> {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(document) as Record<string, unknown>);
  if (!result.valid) return Array.isArray(result.errors) ? result.errors : [result.errors];
  try {
    validator.resolveRefs();
    return [];
  } catch (error) {
    return [error];
  }
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);

/** schemaErrors checks a value against a component schema of a resolved document; null when it matches. */
export function schemaErrors(resolved: ResolvedDocument, schemaName: string, value: unknown): unknown[] | null {
  const components = resolved.components as { schemas: Record<string, object> };
  const schema = components.schemas[schemaName];
  if (!schema) throw new Error(`the document has no schema ${schemaName}`);
  const validate = ajv.compile(structuredClone(schema));
  return validate(value) ? null : (validate.errors ?? []);
}

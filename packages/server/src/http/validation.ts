import type { z } from 'zod';
import { invalid } from './errors.js';

/** fieldErrorsOf groups a zod error's messages by dotted field path ('' for the whole input). */
export function fieldErrorsOf(error: z.ZodError): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.');
    // A schema's own message (the product's wording) wins; only zod's generic text for a missing field is replaced.
    const missing =
      issue.code === 'invalid_type' && issue.input === undefined && issue.message.startsWith('Invalid input');
    const message = missing && key ? `${key} is required` : issue.message;
    fields[key] = [...(fields[key] ?? []), message];
  }
  return fields;
}

/** parseInput validates a request part with a shared schema, or throws a 400 naming each bad field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, code = 'validation_failed'): z.output<S> {
  // reportInput: zod 4 leaves issue.input unset otherwise, and a wrong type would read as a missing field.
  const result = schema.safeParse(input ?? {}, { reportInput: true });
  if (!result.success) throw invalid(fieldErrorsOf(result.error), code);
  return result.data;
}

import { type ClientMessage, clientMessageSchema, PROJECT_LIMITS, schemaLayoutSchema } from '@basalt/shared';
import { invalidLayout, layoutTooLarge } from './schema-layouts.service.js';

// A Schema Editor frame as the room reads it: a client message, or the refusal its sender gets back as an `error`
// message (the socket stays usable). A layout that fails its schema is named as such, with the layout's own words.

/** Refusal is the code and message of an `error` frame. */
export interface Refusal {
  code: string;
  message: string;
}

/** readClientMessage parses one text frame. */
export function readClientMessage(data: string): ClientMessage | { refusal: Refusal } {
  if (data.length > PROJECT_LIMITS.layoutMaxBytes + 4096) return { refusal: layoutTooLarge() };
  let parsedJson: unknown;
  try {
    parsedJson = JSON.parse(data);
  } catch {
    return { refusal: { code: 'invalid_message', message: 'Messages must be JSON objects with a type' } };
  }
  const parsed = clientMessageSchema.safeParse(parsedJson, { reportInput: true });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue?.path[0] === 'layout') {
    const layout = schemaLayoutSchema.safeParse((parsedJson as { layout?: unknown }).layout, { reportInput: true });
    if (!layout.success) return { refusal: invalidLayout(layout.error) };
  }
  const path = issue?.path.map(String).join('.') ?? '';
  return {
    refusal: { code: 'invalid_message', message: `${path ? `${path}: ` : ''}${issue?.message ?? 'Invalid message'}` },
  };
}

import type { FastifyRequest } from 'fastify';
import type { Call } from './routes/route.js';

// Ids in paths are positive integers of at most 16 digits (safe in JavaScript on both engines). Anything else
// names nothing: the routes answer it like an unknown id (404), never with a 400 or a database error.

/** UNKNOWN_ID is what a malformed id parses to: no row has it. */
export const UNKNOWN_ID = -1;

/** parseId reads a positive integer id, or returns UNKNOWN_ID. */
export function parseId(text: string | undefined): number {
  if (!text || text.length > 16 || !/^[1-9]\d*$/.test(text)) return UNKNOWN_ID;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : UNKNOWN_ID;
}

/** idParam reads the route parameter `name` (default `id`) of a request as an id, or UNKNOWN_ID. */
export function idParam(request: FastifyRequest, name = 'id'): number {
  return parseId((request.params as Record<string, string | undefined>)[name]);
}

/** idOf reads a call's path parameter `name` (default `id`) as an id, or UNKNOWN_ID. */
export function idOf(call: Call, name = 'id'): number {
  return parseId(call.params[name]);
}

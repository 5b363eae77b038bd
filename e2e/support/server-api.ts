import { expect } from 'vitest';
import type { ConsoleSession } from './console-server.js';

// Data made through the server's own data API with a signed-in person's token: faster than the screens, and
// what the screens then have to show.

/** postRest POSTs a JSON body to /rest/v1/<path> as the token's owner. */
export function postRest(
  session: ConsoleSession,
  token: string,
  path: string,
  body: unknown,
  prefer: 'return=representation' | 'return=minimal' = 'return=representation',
): Promise<Response> {
  return fetch(`${session.server.url}/rest/v1/${path}`, {
    method: 'POST',
    headers: {
      apikey: session.server.anonKey,
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
      Prefer: prefer,
    },
    body: JSON.stringify(body),
  });
}

/** createTableThroughApi creates a table through /rest/v1/tables, expects 201, and returns the new table's id. */
export async function createTableThroughApi(
  session: ConsoleSession,
  token: string,
  table: { name: string; description: string; schema: Record<string, unknown> },
): Promise<number> {
  const created = await postRest(session, token, 'tables', table);
  expect(created.status).toBe(201);
  const body: unknown = await created.json();
  const row: unknown = Array.isArray(body) ? body[0] : body;
  const id = typeof row === 'object' && row !== null && 'id' in row ? Number(row.id) : 0;
  expect(id).toBeGreaterThan(0);
  return id;
}

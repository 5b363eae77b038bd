// What the OAuth providers share: JSON over HTTP with a time limit, and the error every failure becomes.

// A provider that does not answer within this long fails the sign-in (an error redirect, never a hung request).
const PROVIDER_TIMEOUT_MS = 10_000;

/** ProviderError is a provider that refused, failed or answered something that does not verify. */
export class ProviderError extends Error {}

/** fetchJson reads a provider's JSON answer; anything else is a ProviderError. */
export async function fetchJson(url: string, init: RequestInit = {}): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
  } catch (error) {
    throw new ProviderError(`The provider could not be reached (${(error as Error).message})`);
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ProviderError(`The provider answered ${response.status} without JSON`);
  }
  if (!response.ok) {
    const detail = isRecord(body) ? (body.error_description ?? body.error ?? body.message) : undefined;
    throw new ProviderError(`The provider answered ${response.status}${detail ? `: ${String(detail)}` : ''}`);
  }
  return body;
}

/** isRecord tells whether a value is a JSON object. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** withQuery appends query parameters to a URL. */
export function withQuery(base: string, params: Record<string, string>): string {
  const url = new URL(base);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}

/** compact drops the undefined keys of identity data (GoTrue omits empty claims). */
export function compact(claims: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(claims).filter(([, value]) => value !== undefined));
}

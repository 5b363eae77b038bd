import type { Pool } from 'undici';
import type { RelayError } from './relay-errors.js';

// One HTTP exchange with a function's process over its socket, read whole into one buffer. undici's dispatch with
// a handler of our own: no response stream, no iterator and no abort signal per call (the hot path of every call).

/** InvokeRequest is one call to a function. */
export interface InvokeRequest {
  method: string;
  /** Path and query string, as the function sees them. */
  path: string;
  headers: Record<string, string | string[]>;
  body: Buffer | null;
}

/** HOP_BY_HOP are the headers that belong to one connection, never passed on. */
export const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'content-length',
]);

/** ExchangeAnswer is the process's envelope: the head's length (x-basalt-head) and the whole payload. */
export interface ExchangeAnswer {
  payload: Buffer;
  headLength: number;
}

/**
 * exchange sends a request and resolves with the answer, or null past `limit` bytes; `onAbortable` receives what
 * aborts it (a limit, the wall clock), whose relay error it then rejects with.
 */
export function exchange(
  pool: Pool,
  request: InvokeRequest,
  limit: number,
  onAbortable: (abort: (error: RelayError) => void) => void,
): Promise<ExchangeAnswer | null> {
  const headers: Record<string, string | string[]> = {};
  for (const name in request.headers) {
    if (!HOP_BY_HOP.has(name)) headers[name] = request.headers[name] as string | string[];
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let headLength = Number.NaN;
    let tooLarge = false;
    pool.dispatch(
      { method: request.method as 'GET', path: request.path, headers, body: request.body },
      {
        onRequestStart(controller) {
          onAbortable((error) => controller.abort(Object.assign(new Error(error.message), { relay: error })));
        },
        onResponseStart(_controller, _status, responseHeaders) {
          headLength = Number(responseHeaders['x-basalt-head']);
        },
        onResponseData(controller, chunk) {
          size += chunk.length;
          if (size > limit) {
            tooLarge = true;
            controller.abort(new Error('response too large'));
            return;
          }
          chunks.push(chunk);
        },
        onResponseEnd() {
          resolve({ payload: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size), headLength });
        },
        onResponseError(_controller, error) {
          if (tooLarge) resolve(null);
          else reject((error as { relay?: RelayError }).relay ?? error);
        },
      },
    );
  });
}

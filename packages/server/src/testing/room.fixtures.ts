import type { LayoutElement } from '@basalt/shared';
import WebSocket from 'ws';

// A Schema Editor client for the /ws suites and the room bench: a WebSocket that keeps every message it
// receives and waits for the next one that matches.

/** RoomMessage is a parsed frame from the server. */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary frames.
export type RoomMessage = Record<string, any>;

/** RoomClient is an open socket with its received messages. */
export interface RoomClient {
  socket: WebSocket;
  received: RoomMessage[];
  send(message: unknown): void;
  sendRaw(data: string): void;
  /** next waits for a message (after those already taken) matching `test`. */
  next(test: (message: RoomMessage) => boolean, timeoutMs?: number): Promise<RoomMessage>;
  close(): Promise<void>;
}

/** openRoomClient connects to /ws of `baseUrl` with an access token (or extra headers, e.g. a cookie). */
export async function openRoomClient(
  baseUrl: string,
  auth: { token?: string; headers?: Record<string, string> },
): Promise<RoomClient> {
  const url = `${baseUrl.replace(/^http/, 'ws')}/ws${auth.token ? `?access_token=${encodeURIComponent(auth.token)}` : ''}`;
  const socket = new WebSocket(url, { headers: auth.headers });
  const received: RoomMessage[] = [];
  let taken = 0;
  const waiters = new Set<() => void>();
  socket.on('message', (data) => {
    received.push(JSON.parse(data.toString()));
    for (const wake of waiters) wake();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
    socket.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
  });
  return {
    socket,
    received,
    send: (message) => socket.send(JSON.stringify(message)),
    sendRaw: (data) => socket.send(data),
    next(test, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          for (let i = taken; i < received.length; i++) {
            const message = received[i];
            if (message && test(message)) {
              taken = i + 1;
              waiters.delete(check);
              clearTimeout(timer);
              resolve(message);
              return;
            }
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching message within ${timeoutMs} ms; got ${JSON.stringify(received.slice(taken))}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (socket.readyState === WebSocket.CLOSED) return resolve();
        socket.once('close', () => resolve());
        socket.close();
      }),
  };
}

/** upgradeStatus tries to open /ws and returns the HTTP status of a refused upgrade (101 when it opened). */
export function upgradeStatus(baseUrl: string, query = '', headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws${query}`, { headers });
    socket.once('open', () => {
      socket.close();
      resolve(101);
    });
    socket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    socket.once('error', (error) => reject(error));
  });
}

/** tableElement is a layout element named `name` at x with the fields id and name (ids prefixed by the element's). */
export function tableElement(id: string, x = 0, name = `Table ${id}`): LayoutElement {
  return {
    id,
    name,
    type: 'table',
    position: { x, y: 0 },
    fields: [
      { id: `${id}.id`, name: 'id', type: 'integer', primary: true },
      { id: `${id}.name`, name: 'name', type: 'string' },
    ],
  };
}

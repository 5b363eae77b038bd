import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';

// Fixtures of the realtime suites: supabase-js channels subscribed and their events collected, and a raw Phoenix
// socket (vsn 2.0.0 or 1.0.0) for what supabase-js never sends (malformed frames, other topics, bad payloads).

const WAIT_MS = 10_000;

/** Inbox collects what a channel hears and lets a test wait for the next matching item. */
export class Inbox<T> {
  readonly items: T[] = [];
  private waiters: Array<{ match: (item: T) => boolean; resolve: (item: T) => void }> = [];

  push = (item: T): void => {
    this.items.push(item);
    for (const waiter of [...this.waiters]) {
      if (waiter.match(item)) {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        waiter.resolve(item);
      }
    }
  };

  /** next waits for an item (already here or to come) that matches, taking it out of the inbox. */
  next(match: (item: T) => boolean = () => true, timeoutMs = WAIT_MS): Promise<T> {
    const at = this.items.findIndex(match);
    if (at >= 0) return Promise.resolve(this.items.splice(at, 1)[0] as T);
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.resolve !== done);
        reject(
          new Error(
            `nothing matching arrived within ${timeoutMs} ms; heard: ${JSON.stringify(this.items).slice(0, 2000)}`,
          ),
        );
      }, timeoutMs);
      const done = (item: T) => {
        clearTimeout(timer);
        this.items.splice(this.items.indexOf(item), 1);
        resolve(item);
      };
      this.waiters.push({ match, resolve: done });
    });
  }

  /** quiet waits a moment and tells whether nothing matching arrived (the negative cases). */
  async quiet(match: (item: T) => boolean = () => true, ms = 300): Promise<boolean> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return !this.items.some(match);
  }
}

/** SubscribeOutcome is how a subscribe ended: SUBSCRIBED, or an error status with its message. */
export interface SubscribeOutcome {
  status: string;
  error?: string;
}

/** subscribed subscribes a channel and resolves with its first outcome (SUBSCRIBED, CHANNEL_ERROR, TIMED_OUT). */
export function subscribed(channel: RealtimeChannel, timeoutMs = WAIT_MS): Promise<SubscribeOutcome> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('subscribe did not answer')), timeoutMs);
    let settled = false;
    channel.subscribe((status, error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ status, ...(error ? { error: error.message } : {}) });
    });
  });
}

/** subscribeOrThrow subscribes and fails the test unless it is SUBSCRIBED. */
export async function subscribeOrThrow(channel: RealtimeChannel): Promise<void> {
  const outcome = await subscribed(channel);
  if (outcome.status !== 'SUBSCRIBED') throw new Error(`subscribe failed: ${outcome.status} ${outcome.error ?? ''}`);
}

/** changesOf subscribes to postgres_changes on a table and collects the payloads. */
export async function changesOf(
  client: SupabaseClient,
  topic: string,
  binding: { event: '*' | 'INSERT' | 'UPDATE' | 'DELETE'; table?: string; filter?: string },
): Promise<{ channel: RealtimeChannel; inbox: Inbox<Record<string, unknown>> }> {
  const inbox = new Inbox<Record<string, unknown>>();
  const channel = client
    .channel(topic)
    .on('postgres_changes', { schema: 'public', ...binding }, (payload) => inbox.push(payload as never));
  await subscribeOrThrow(channel);
  return { channel, inbox };
}

/** closeClients removes every channel of the clients and ends their sockets. */
export async function closeClients(...clients: SupabaseClient[]): Promise<void> {
  await Promise.all(clients.map((client) => client.removeAllChannels()));
}

/** PhoenixSocket is a raw socket to /realtime/v1 that records every frame it receives. */
export interface PhoenixSocket {
  ws: WebSocket;
  /** Text frames parsed (arrays for vsn 2.0.0, objects for 1.0.0); binary frames as Buffers. */
  inbox: Inbox<unknown>;
  send(frame: unknown): void;
  close(): Promise<void>;
}

/** openPhoenix opens a raw socket; resolves once open, or rejects with the upgrade's HTTP status. */
export function openPhoenix(baseUrl: string, query: string): Promise<PhoenixSocket> {
  const url = `${baseUrl.replace(/^http/, 'ws')}/realtime/v1/websocket?${query}`;
  const ws = new WebSocket(url);
  const inbox = new Inbox<unknown>();
  ws.on('message', (data, isBinary) => {
    const buffer = Buffer.isBuffer(data) ? data : Buffer.concat(data as Buffer[]);
    inbox.push(isBinary ? buffer : JSON.parse(buffer.toString('utf8')));
  });
  return new Promise((resolve, reject) => {
    ws.once('unexpected-response', (_request, response) =>
      reject(new Error(`upgrade refused: ${response.statusCode}`)),
    );
    ws.once('error', reject);
    ws.once('open', () =>
      resolve({
        ws,
        inbox,
        send: (frame) => ws.send(typeof frame === 'string' || Buffer.isBuffer(frame) ? frame : JSON.stringify(frame)),
        close: () =>
          new Promise((done) => {
            if (ws.readyState === WebSocket.CLOSED) return done();
            ws.once('close', () => done());
            ws.close();
          }),
      }),
    );
  });
}

/** replyTo matches the vsn 2.0.0 phx_reply to the message with `ref`. */
export const replyTo =
  (ref: string) =>
  (frame: unknown): boolean =>
    Array.isArray(frame) && frame[1] === ref && frame[3] === 'phx_reply';

import { createRequire } from 'node:module';
import type { ColumnType } from '@basalt/shared';
import Serializer from '@supabase/realtime-js/dist/main/lib/serializer.js';
import { describe, expect, it } from 'vitest';
import type { UserTableShape } from '../../db/user-tables.js';
import { checkFilter, FilterError, matchesFilter, parseFilter } from './realtime-filters.js';
import {
  decodeFrame,
  encodeBroadcast,
  encodeMessage,
  encodeReply,
  encodeUserBroadcastPush,
} from './realtime-frames.js';
import { wsFrame } from './realtime-wire.js';

// The codec against realtime-js's own serializer (what supabase-js sends is what we read; what we send is what it
// decodes), and the filter language, without a server.

const serializer = new Serializer();
// ws's own frame parser (its types leave it out).
const { Receiver } = createRequire(import.meta.url)('ws');
const encodeWithClient = (message: Record<string, unknown>): string | ArrayBuffer => {
  let out: string | ArrayBuffer = '';
  serializer.encode(message as never, (encoded: string | ArrayBuffer) => {
    out = encoded;
  });
  return out;
};
const decodeWithClient = (raw: string | ArrayBuffer): Record<string, unknown> => {
  let out: Record<string, unknown> = {};
  serializer.decode(raw as never, (decoded: Record<string, unknown>) => {
    out = decoded;
  });
  return out;
};
const toArrayBuffer = (buffer: Buffer): ArrayBuffer => new Uint8Array(buffer).buffer as ArrayBuffer;

describe('realtime frames', () => {
  it('writes WebSocket frames ws reads back, at every length encoding', async () => {
    for (const size of [0, 125, 126, 65_535, 65_536, 200_000]) {
      const payload = Buffer.alloc(size, 'x');
      const received = await new Promise<{ data: Buffer; binary: boolean }>((resolve, reject) => {
        const receiver = new Receiver({ isServer: false, maxPayload: 0 });
        receiver.on('message', (data: Buffer, binary: boolean) => resolve({ data, binary }));
        receiver.on('error', reject);
        receiver.write(wsFrame(payload, size % 2 === 1));
      });
      expect(received.binary).toBe(size % 2 === 1);
      expect(received.data.equals(payload)).toBe(true);
    }
  });

  it('reads what supabase-js 2.x sends: text arrays and binary broadcasts, JSON and bytes', () => {
    const join = encodeWithClient({
      join_ref: '1',
      ref: '1',
      topic: 'realtime:room',
      event: 'phx_join',
      payload: { a: 1 },
    });
    expect(decodeFrame(Buffer.from(join as string), false, '2.0.0')).toEqual({
      joinRef: '1',
      ref: '1',
      topic: 'realtime:room',
      event: 'phx_join',
      payload: { a: 1 },
    });
    const json = encodeWithClient({
      join_ref: '1',
      ref: '2',
      topic: 'realtime:ré',
      event: 'broadcast',
      payload: { type: 'broadcast', event: 'hé', payload: { x: [1] } },
    });
    expect(decodeFrame(Buffer.from(json as ArrayBuffer), true, '2.0.0')).toMatchObject({
      joinRef: '1',
      ref: '2',
      topic: 'realtime:ré',
      event: 'broadcast',
      broadcast: { event: 'hé', json: { x: [1] } },
    });
    const bytes = encodeWithClient({
      join_ref: '1',
      ref: '3',
      topic: 'realtime:room',
      event: 'broadcast',
      payload: { type: 'broadcast', event: 'raw', payload: new Uint8Array([1, 2, 3]).buffer },
    });
    const decoded = decodeFrame(Buffer.from(bytes as ArrayBuffer), true, '2.0.0');
    expect(decoded).toMatchObject({ broadcast: { event: 'raw' } });
    expect([...(decoded as { broadcast: { bytes: Uint8Array } }).broadcast.bytes]).toEqual([1, 2, 3]);
  });

  it('writes what supabase-js decodes: replies as text, broadcasts as binary (kind 4) or JSON for vsn 1.0.0', () => {
    const reply = encodeReply('2.0.0', { joinRef: '1', ref: '2', topic: 'realtime:a' }, 'ok', { postgres_changes: [] });
    expect(decodeWithClient(reply)).toEqual({
      join_ref: '1',
      ref: '2',
      topic: 'realtime:a',
      event: 'phx_reply',
      payload: { status: 'ok', response: { postgres_changes: [] } },
    });
    const broadcast = encodeBroadcast('2.0.0', 'realtime:a', { event: 'e', json: { k: 'é' } }) as Buffer;
    expect(decodeWithClient(toArrayBuffer(broadcast))).toEqual({
      join_ref: null,
      ref: null,
      topic: 'realtime:a',
      event: 'broadcast',
      payload: { type: 'broadcast', event: 'e', payload: { k: 'é' } },
    });
    const bytes = encodeBroadcast('2.0.0', 'realtime:a', { event: 'e', bytes: new Uint8Array([9, 8]) }) as Buffer;
    const heard = decodeWithClient(toArrayBuffer(bytes)).payload as { payload: ArrayBuffer };
    expect([...new Uint8Array(heard.payload)]).toEqual([9, 8]);
    expect(JSON.parse(encodeBroadcast('1.0.0', 'realtime:a', { event: 'e', json: 1 }) as string)).toEqual({
      join_ref: null,
      ref: null,
      topic: 'realtime:a',
      event: 'broadcast',
      payload: { type: 'broadcast', event: 'e', payload: 1 },
    });
    expect(encodeBroadcast('1.0.0', 'realtime:a', { event: 'e', bytes: new Uint8Array(1) })).toBeNull();
    // A topic too long for the binary layout still reaches a vsn 2.0.0 client as text.
    const long = `realtime:${'t'.repeat(300)}`;
    expect(decodeWithClient(encodeBroadcast('2.0.0', long, { event: 'e', json: 2 }) as string)).toMatchObject({
      topic: long,
    });
    expect(JSON.parse(encodeMessage('1.0.0', null, '5', 'phoenix', 'phx_reply', {}))).toMatchObject({ ref: '5' });
  });

  it('refuses what is not a message without throwing', () => {
    const cases: Array<[Buffer, boolean]> = [
      [Buffer.from('{'), false],
      [Buffer.from('[1,2,3]'), false],
      [Buffer.from('"text"'), false],
      [Buffer.from([]), true],
      [Buffer.from([3, 1, 1, 1, 1, 1, 1]), true],
      [Buffer.from([3, 0, 0, 1, 1, 0, 7, 0x41, 0x42]), true],
      [Buffer.from([3, 0, 0, 1, 1, 0, 1, 0x41, 0x42, 0x7b]), true],
      [Buffer.from([0, 9]), true],
      [encodeUserBroadcastPush({ joinRef: '1', ref: '1', topic: 't' }, { event: 'e', json: {} }), true],
    ];
    for (const [data, binary] of cases.slice(0, -1))
      expect(decodeFrame(data, binary, '2.0.0')).toHaveProperty('malformed');
    expect(decodeFrame(cases.at(-1)?.[0] as Buffer, true, '1.0.0')).toEqual({
      malformed: 'binary frames need vsn 2.0.0',
    });
  });
});

const column = (type: ColumnType) => ({ type, required: false, unique: false });
const table: UserTableShape = {
  id: 1,
  schema: {
    title: column('text'),
    qty: column('number'),
    done: column('boolean'),
    due: column('date'),
    meta: column('json'),
  },
};

describe('realtime filters', () => {
  it.each([
    ['title=eq.a', [{ column: 'title', op: 'eq', negated: false, values: ['a'] }]],
    ['title=eq.a,b', [{ column: 'title', op: 'eq', negated: false, values: ['a,b'] }]],
    [
      'title=eq."a,\\"b\\"",qty=gt.1',
      [
        { column: 'title', op: 'eq', negated: false, values: ['a,"b"'] },
        { column: 'qty', op: 'gt', negated: false, values: ['1'] },
      ],
    ],
    ['qty=not.in.(1,"2",3)', [{ column: 'qty', op: 'in', negated: true, values: ['1', '2', '3'] }]],
    ['done=is.null', [{ column: 'done', op: 'is', negated: false, values: ['null'] }]],
  ])('reads %s', (text, terms) => {
    expect(parseFilter(text)).toEqual(terms);
  });

  it.each([
    ['', /empty/],
    ['title', /column=operator.value/],
    ['1x=eq.a', /not a column name/],
    ['title=like.a%', /Unsupported filter operator "like"/],
    ['title=eq."open', /not closed/],
    ['qty=in.1,2', /in takes a list/],
    ['qty=in.(1,2', /not closed/],
    ['done=is.maybe', /is takes null, true or false/],
    ['title=eq."a",', /ends with a comma/],
    ['title=eq."a"b', /Unexpected "b"/],
  ])('refuses %s', (text, message) => {
    expect(() => parseFilter(text)).toThrow(FilterError);
    expect(() => parseFilter(text)).toThrow(message);
  });

  it('refuses too many terms and too long a filter', () => {
    expect(() => parseFilter(Array.from({ length: 17 }, (_, i) => `qty=eq.${i}`).join(','))).toThrow(/at most 16/);
    expect(() => parseFilter(`title=eq.${'x'.repeat(5000)}`)).toThrow(/longer than/);
    expect(() => parseFilter(`qty=in.(${Array.from({ length: 101 }, (_, i) => i).join(',')})`)).toThrow(/at most 100/);
  });

  it('checks terms against the table: known columns, filterable types, values of the type', () => {
    expect(() => checkFilter(parseFilter('nope=eq.1'), table)).toThrow(/no column "nope"/);
    expect(() => checkFilter(parseFilter('meta=eq.1'), table)).toThrow(/is json/);
    expect(() => checkFilter(parseFilter('qty=gt.ten'), table)).toThrow(/not a number/);
    expect(() => checkFilter(parseFilter('due=lt.soon'), table)).toThrow(/not a date/);
    expect(() => checkFilter(parseFilter('done=eq.yes'), table)).toThrow(/not a boolean/);
    expect(() => checkFilter(parseFilter('id=in.(1,2),created_at=gte.2024-01-01'), table)).not.toThrow();
  });

  it('matches as the column type compares, NULL matching nothing but is.null', () => {
    const row = { id: 3, title: 'b', qty: 10, done: false, due: '2025-01-02T00:00:00.000Z', meta: null };
    const holds = (text: string, record: Record<string, unknown> = row) =>
      matchesFilter(parseFilter(text), table, record);
    expect(holds('qty=gt.9')).toBe(true);
    expect(holds('qty=gt.10')).toBe(false);
    expect(holds('qty=eq.10.0')).toBe(true);
    expect(holds('title=lt.c')).toBe(true);
    expect(holds('due=gt.2025-01-01')).toBe(true);
    expect(holds('due=lt.2025-01-02T00:00:00Z')).toBe(false);
    expect(holds('done=eq.false')).toBe(true);
    expect(holds('done=is.false')).toBe(true);
    expect(holds('id=in.(1,3)')).toBe(true);
    expect(holds('qty=neq.5', { ...row, qty: null })).toBe(false);
    expect(holds('qty=not.eq.5', { ...row, qty: null })).toBe(false);
    expect(holds('qty=is.null', { ...row, qty: null })).toBe(true);
    expect(holds('qty=not.is.null')).toBe(true);
    expect(holds('qty=gt.1', { id: 1 })).toBe(false);
  });
});

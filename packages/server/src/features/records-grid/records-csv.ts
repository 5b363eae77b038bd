import { Readable } from 'node:stream';
import Papa from 'papaparse';
import type { Db } from '../../db/database.js';
import type { Condition } from '../../db/user-conditions.js';
import type { TableDefinition } from '../../db/user-tables.js';
import type { Actor } from '../../lib/actor/actor.js';
import { listRecords, type RecordRow } from '../records/records.service.js';

// A table's records as CSV (RFC 4180, CRLF lines, a header row): id, the table's columns in order, created_at and
// updated_at. Records are read in id order a batch at a time, each batch starting after the last id of the one
// before (a keyset: no batch skips rows, so the millionth row costs what the first did), and streamed as read.
// A json or array value is its JSON text, a boolean true/false, null an empty field; a text cell is written as
// stored (no formula escaping: the file is meant to be imported again, unchanged).

/** EXPORT_BATCH is how many records one read of an export takes. */
export const EXPORT_BATCH = 1000;

/** csvColumns are the columns of a table's CSV, in order. */
export function csvColumns(table: TableDefinition): string[] {
  return ['id', ...Object.keys(table.schema), 'created_at', 'updated_at'];
}

function cell(value: unknown): string | number | boolean {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return String(value);
}

/** csvLines writes records as CSV lines (each ending in CRLF), without a header. */
export function csvLines(columns: readonly string[], rows: readonly RecordRow[]): string {
  if (rows.length === 0) return '';
  const data = rows.map((row) => columns.map((column) => cell(row[column])));
  return `${Papa.unparse(data, { newline: '\r\n' })}\r\n`;
}

function after(where: Condition | undefined, id: number): Condition {
  const next: Condition = { kind: 'compare', column: 'id', op: 'gt', value: id };
  return where ? { kind: 'and', conditions: [where, next] } : next;
}

/**
 * exportCsv reads the first batch at once (so a refused filter is answered as an error, not a broken file), then
 * returns the whole CSV as a stream that reads the rest while it is sent.
 */
export async function exportCsv(
  db: Db,
  actor: Actor,
  table: TableDefinition,
  where: Condition | undefined,
): Promise<Readable> {
  const columns = csvColumns(table);
  const order = [{ column: 'id', direction: 'asc' as const }];
  const read = (lastId: number | null) =>
    listRecords(db, actor, table, {
      where: lastId === null ? where : after(where, lastId),
      order,
      limit: EXPORT_BATCH,
    });
  const first = await read(null);
  async function* chunks() {
    yield `${Papa.unparse([columns], { newline: '\r\n' })}\r\n`;
    let batch = first;
    while (batch.length > 0) {
      yield csvLines(columns, batch);
      const last = batch.at(-1);
      if (batch.length < EXPORT_BATCH || !last) return;
      batch = await read(last.id);
    }
  }
  return Readable.from(chunks());
}

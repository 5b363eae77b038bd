import { type ColumnType, isSystemColumnName, type TableSchema } from '@basalt/shared';
import type { RecordPayload } from './records.api';

// Reading a CSV file for import into a table: the first row names the columns, each later row is a record. Columns
// are matched to the table's by name; id, created_at and updated_at are left to the server (an exported file
// imports as new records). Cells are converted by the column's type as an export writes them (JSON text for json
// and array cells, true/false for booleans, an empty field for no value), and checked before anything is sent.
// The records then go to the server in parts of at most IMPORT_PART_ROWS rows and about IMPORT_PART_BYTES of JSON
// (under the server's 1 MiB body limit), each part created in one transaction.

/** IMPORT_PART_ROWS is the most records one part of an import sends. */
export const IMPORT_PART_ROWS = 500;
/** IMPORT_PART_BYTES is about the most JSON one part of an import sends. */
export const IMPORT_PART_BYTES = 512 * 1024;
// A file's problems are listed up to this many; the rest are counted.
const MAX_PROBLEMS = 5;

/** CsvImport is a file read for import: its records, and what stands in the way of importing them. */
export interface CsvImport {
  rows: RecordPayload[];
  /** The table's columns the file fills. */
  columns: string[];
  /** System columns in the file, which the server sets itself. */
  ignored: string[];
  /** Columns the table does not have: the file cannot be imported as it is. */
  unknown: string[];
  /** Cells that do not fit their column, as "Row 3: …" sentences (the first few). */
  problems: string[];
  problemCount: number;
}

const TRUE = new Set(['true', 't', '1', 'yes']);
const FALSE = new Set(['false', 'f', '0', 'no']);

type Cell = { ok: true; value: unknown } | { ok: false; message: string };

/** csvCell converts one cell's text to the value sent for a column of `type`; '' is no value. */
export function csvCell(type: ColumnType, column: string, text: string): Cell {
  if (text === '') return { ok: true, value: null };
  switch (type) {
    case 'number': {
      const n = Number(text.trim());
      return text.trim() !== '' && Number.isFinite(n)
        ? { ok: true, value: n }
        : { ok: false, message: `"${column}" must be a number` };
    }
    case 'boolean': {
      const word = text.trim().toLowerCase();
      if (TRUE.has(word)) return { ok: true, value: true };
      if (FALSE.has(word)) return { ok: true, value: false };
      return { ok: false, message: `"${column}" must be true or false` };
    }
    case 'json':
      try {
        return { ok: true, value: JSON.parse(text) };
      } catch {
        // Text that is not JSON is a JSON string value.
        return { ok: true, value: text };
      }
    case 'array':
      try {
        const value: unknown = JSON.parse(text);
        if (Array.isArray(value)) return { ok: true, value };
      } catch {
        // Falls through to the message.
      }
      return { ok: false, message: `"${column}" must be a JSON array` };
    default:
      return { ok: true, value: text };
  }
}

/** readCsvRows turns a parsed file (header row first) into records for `schema`, with what is wrong with it. */
export function readCsvRows(schema: TableSchema, data: readonly string[][]): CsvImport {
  const [header = [], ...lines] = data;
  const names = header.map((name) => name.trim());
  const ignored = names.filter((name) => isSystemColumnName(name));
  const unknown = names.filter((name) => name !== '' && !isSystemColumnName(name) && !Object.hasOwn(schema, name));
  const columns = names.filter((name) => Object.hasOwn(schema, name) && !isSystemColumnName(name));
  const problems: string[] = [];
  let problemCount = 0;
  const rows: RecordPayload[] = [];
  lines.forEach((line, index) => {
    // A blank last line (a file ending in a newline) is no record.
    if (line.length === 1 && line[0] === '') return;
    const row: RecordPayload = {};
    names.forEach((name, at) => {
      const definition = columns.includes(name) ? schema[name] : undefined;
      if (!definition) return;
      const cell = csvCell(definition.type, name, line[at] ?? '');
      if (!cell.ok) {
        problemCount++;
        if (problems.length < MAX_PROBLEMS) problems.push(`Row ${index + 2}: ${cell.message}`);
      } else if (cell.value !== null) {
        row[name] = cell.value;
      }
    });
    rows.push(row);
  });
  return { rows, columns, ignored, unknown, problems, problemCount };
}

/** parseCsvFile reads a CSV file in the browser (Papa Parse, loaded only when a file is imported). */
export async function parseCsvFile(file: File, schema: TableSchema): Promise<CsvImport> {
  const { default: Papa } = await import('papaparse');
  const text = await file.text();
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: 'greedy' });
  return readCsvRows(schema, parsed.data);
}

/** importParts splits records into the parts an import sends, by count and by size. */
export function importParts(rows: readonly RecordPayload[]): RecordPayload[][] {
  const parts: RecordPayload[][] = [];
  let part: RecordPayload[] = [];
  let bytes = 0;
  for (const row of rows) {
    const size = JSON.stringify(row).length + 1;
    if (part.length > 0 && (part.length >= IMPORT_PART_ROWS || bytes + size > IMPORT_PART_BYTES)) {
      parts.push(part);
      part = [];
      bytes = 0;
    }
    part.push(row);
    bytes += size;
  }
  if (part.length > 0) parts.push(part);
  return parts;
}

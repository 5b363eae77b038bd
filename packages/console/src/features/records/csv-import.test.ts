import type { TableSchema } from '@basalt/shared';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { IMPORT_PART_BYTES, IMPORT_PART_ROWS, importParts, readCsvRows } from './csv-import';

const schema: TableSchema = {
  id: { type: 'number', required: true, unique: true },
  title: { type: 'text', required: false, unique: false },
  qty: { type: 'number', required: false, unique: false },
  paid: { type: 'boolean', required: false, unique: false },
  meta: { type: 'json', required: false, unique: false },
  tags: { type: 'array', required: false, unique: false },
};

const read = (text: string) => readCsvRows(schema, Papa.parse<string[]>(text, { skipEmptyLines: 'greedy' }).data);

describe('reading a CSV file for import', () => {
  it('converts each cell by its column’s type and leaves the system columns to the server', () => {
    const file = read(
      'id,title,qty,paid,meta,tags,created_at\r\n' +
        '4,"tea, green",3,true,"{""a"":1}","[1,2]",2026-01-01\r\n' +
        '5,"two\nlines",,FALSE,not json,,\r\n',
    );
    expect(file.columns).toEqual(['title', 'qty', 'paid', 'meta', 'tags']);
    expect(file.ignored).toEqual(['id', 'created_at']);
    expect(file.unknown).toEqual([]);
    expect(file.problems).toEqual([]);
    expect(file.rows).toEqual([
      { title: 'tea, green', qty: 3, paid: true, meta: { a: 1 }, tags: [1, 2] },
      { title: 'two\nlines', paid: false, meta: 'not json' },
    ]);
  });

  it('names columns the table lacks and cells that do not fit, by row', () => {
    const file = read('title,colour,qty,paid,tags\r\na,red,many,maybe,[1]\r\nb,blue,2,yes,{}\r\n');
    expect(file.unknown).toEqual(['colour']);
    expect(file.problems).toEqual([
      'Row 2: "qty" must be a number',
      'Row 2: "paid" must be true or false',
      'Row 3: "tags" must be a JSON array',
    ]);
    expect(file.problemCount).toBe(3);
  });

  it('sends the records in parts small enough for the server', () => {
    const many = Array.from({ length: IMPORT_PART_ROWS * 2 + 1 }, (_, i) => ({ title: `t${i}` }));
    expect(importParts(many).map((part) => part.length)).toEqual([IMPORT_PART_ROWS, IMPORT_PART_ROWS, 1]);
    const big = Array.from({ length: 6 }, () => ({ title: 'x'.repeat(IMPORT_PART_BYTES / 4) }));
    const parts = importParts(big);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(JSON.stringify(part).length).toBeLessThan(IMPORT_PART_BYTES + 1024);
    expect(parts.flat()).toEqual(big);
  });
});

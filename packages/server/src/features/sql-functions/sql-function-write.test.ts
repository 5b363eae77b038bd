import { describe, expect, it } from 'vitest';
import type { CompiledBody } from './sql-function-body.js';
import { compileStatement, type WritePlan } from './sql-function-write.js';

// A write function's statement split without a database: the table it writes, the columns it sets, the SELECT that
// finds what to write (checked like a read), its RETURNING; and what is refused.

const options = {
  params: ['title', 'n', 'name'],
  tableNamed: (name: string) => (['books', 'authors'].includes(name.toLowerCase()) ? name.toLowerCase() : null),
};

const textOf = (body: CompiledBody) =>
  body.parts.map((p) => (p.kind === 'text' ? p.text : p.kind === 'param' ? `{${p.name}}` : `[${p.name}]`)).join('');

async function plan(text: string): Promise<WritePlan> {
  const compiled = await compileStatement(text, options);
  if (compiled.kind !== 'write') throw new Error('not a write');
  return compiled.plan;
}

describe('compileStatement', () => {
  it('keeps a SELECT a read', async () => {
    expect((await compileStatement('SELECT count(*) FROM books', options)).kind).toBe('read');
  });

  it('turns an INSERT into the rows it inserts', async () => {
    const p = await plan("INSERT INTO books (title, stock) VALUES (:title, 1), ('b', :n) RETURNING id, title AS t");
    expect(p).toMatchObject({ op: 'insert', table: 'books', columns: ['title', 'stock'] });
    expect(p.returning).toEqual([
      { column: 'id', as: 'id' },
      { column: 'title', as: 't' },
    ]);
    expect(textOf(p.selection)).toContain(
      "AS ( VALUES ( {title} , 1 ) , ( 'b' , {n} ) ) SELECT rpc_1 , rpc_2 FROM rpc_source",
    );
    const fromSelect = await plan('INSERT INTO books (title) SELECT name FROM authors WHERE name = :name RETURNING *');
    expect(fromSelect.selection.tables).toEqual(['authors']);
    expect(fromSelect.returning).toBe('all');
  });

  it("turns an UPDATE into each record's id and new values, with FROM and WHERE", async () => {
    const p = await plan(
      'UPDATE books AS b SET stock = b.stock - :n, title = upper(a.name) FROM authors a WHERE b.author = a.id AND a.name IS DISTINCT FROM :name RETURNING *',
    );
    expect(p).toMatchObject({ op: 'update', table: 'books', columns: ['stock', 'title'] });
    expect(textOf(p.selection)).toBe(
      'SELECT b . id AS rpc_id , ( b . stock - {n} ) AS rpc_1 , ( upper ( a . name ) ) AS rpc_2 FROM [books] AS b , [authors] a WHERE b . author = a . id AND a . name IS DISTINCT FROM {name} ',
    );
  });

  it('turns a DELETE into the ids it deletes', async () => {
    const p = await plan('DELETE FROM books USING authors WHERE books.author = authors.id RETURNING id');
    expect(p.op).toBe('delete');
    expect(textOf(p.selection)).toContain('SELECT "books" . id AS rpc_id FROM [books] , [authors] WHERE');
  });

  it('refuses what reaches beyond the account or cannot go through the records path', async () => {
    for (const text of [
      'DELETE FROM vault RETURNING id',
      'DELETE FROM public.books RETURNING id',
      'UPDATE books SET stock = (SELECT count(*) FROM accounts) RETURNING id',
      'INSERT INTO books (title) SELECT code FROM vault RETURNING id',
      'INSERT INTO books (title) VALUES (1) ON CONFLICT DO NOTHING',
      'WITH x AS (SELECT 1) DELETE FROM books',
      'UPDATE books SET (title, stock) = (:title, 1)',
      'UPDATE books SET stock = 1 RETURNING stock + 1',
      'DELETE FROM ONLY books',
      'INSERT INTO books (title) VALUES (DEFAULT) RETURNING id',
      'DELETE FROM books WHERE pg_sleep(1) IS NULL',
      'TRUNCATE books',
    ]) {
      await expect(compileStatement(text, options), text).rejects.toThrow();
    }
  });
});

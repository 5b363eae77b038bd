import { describe, expect, it } from 'vitest';
import { BodyError, compileBody } from './sql-function-body.js';

// The statement check without a database: what passes, how it is split, and what is refused.

const options = {
  params: ['author', 'n'],
  tableNamed: (name: string) => (['posts', 'Authors'].includes(name) ? name : name === 'authors' ? 'Authors' : null),
};

describe('compileBody', () => {
  it('splits a SELECT into text, bound parameters and the account tables, comments dropped', async () => {
    const body = await compileBody(
      "SELECT p.title, a.name -- who\nFROM posts p JOIN authors ON a.id = p.author_id WHERE p.author_id = :author AND p.title <> 'it''s' LIMIT 3;",
      options,
    );
    expect(body.tables.sort()).toEqual(['Authors', 'posts']);
    expect(body.parts).toEqual([
      { kind: 'text', text: 'SELECT p . title , a . name FROM ' },
      { kind: 'table', name: 'posts', alias: null },
      { kind: 'text', text: ' p JOIN ' },
      { kind: 'table', name: 'Authors', alias: 'authors' },
      { kind: 'text', text: ' ON a . id = p . author_id WHERE p . author_id = ' },
      { kind: 'param', name: 'author' },
      { kind: 'text', text: " AND p . title <> 'it''s' LIMIT 3 " },
    ]);
  });

  it('keeps WITH queries and the caller id placeholder', async () => {
    const body = await compileBody(
      'WITH mine AS (SELECT * FROM posts WHERE owner = :auth_uid) SELECT count(*) FROM mine',
      options,
    );
    expect(body.tables).toEqual(['posts']);
    expect(body.parts.filter((p) => p.kind === 'param')).toEqual([{ kind: 'param', name: 'auth_uid' }]);
  });

  it('allows casts to the listed types', async () => {
    const body = await compileBody('SELECT CAST(:n AS integer), title::text FROM posts', options);
    expect(body.parts.some((p) => p.kind === 'param' && p.name === 'n')).toBe(true);
  });

  it.each([
    ['another table', 'SELECT * FROM secrets'],
    ['a catalog', 'SELECT * FROM pg_catalog.pg_class'],
    ['a schema', 'SELECT * FROM public.posts'],
    ['SQLite catalog', 'SELECT * FROM sqlite_schema'],
    ['a write', 'UPDATE posts SET title = 1'],
    ['a write in WITH', 'WITH x AS (INSERT INTO posts DEFAULT VALUES RETURNING id) SELECT * FROM x'],
    ['a CTE shadowing a table', 'WITH posts AS (SELECT 1) SELECT * FROM posts'],
    ['two statements', 'SELECT 1; SELECT 2'],
    ['a function outside the list', "SELECT pg_read_file('/etc/passwd')"],
    ['a qualified function', 'SELECT pg_catalog.lower(title) FROM posts'],
    ['a function in FROM', 'SELECT * FROM generate_series(1, 3)'],
    ['a cast to regclass', "SELECT 'posts'::regclass"],
    ['current_user', 'SELECT current_user'],
    ['an E string', "SELECT E'\\\\x'"],
    ['a dollar string', 'SELECT $$x$$'],
    ['a positional parameter', 'SELECT $1'],
    ['an unknown placeholder', 'SELECT :nope'],
    ['brackets', 'SELECT [title] FROM posts'],
    ['a $ inside a bare name', 'SELECT a$b FROM posts'],
    ['a question mark', "SELECT 1 FROM posts WHERE title ? 'x'"],
    ['SELECT INTO', 'SELECT 1 INTO other'],
    ['FOR UPDATE', 'SELECT * FROM posts FOR UPDATE'],
    ['nothing', '-- only a comment'],
    ['NUL', 'SELECT 1\u0000'],
    ['not SQL', 'this is not sql'],
  ])('refuses %s', async (_what, text) => {
    await expect(compileBody(text, options)).rejects.toBeInstanceOf(BodyError);
  });
});

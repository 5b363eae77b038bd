import { describe, expect, it } from 'vitest';
import { splitMysql } from './sql-split-mysql.js';
import { splitPostgres } from './sql-split-postgres.js';
import { SqlInputError } from './sql-statements.js';

// The splitting corpus: what each dialect's statements look like in real migration files.

const textsOf = (statements: Array<{ text: string }>) => statements.map((s) => s.text);

async function syntaxError(promise: Promise<unknown>): Promise<SqlInputError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SqlInputError);
  return error as SqlInputError;
}

describe('splitPostgres', () => {
  const corpus: Array<[string, string, string[]]> = [
    ['plain statements', 'select 1; select 2;select 3', ['select 1', 'select 2', 'select 3']],
    ['no final semicolon, blank lines', '\n\n  create table t (id int)\n\n', ['create table t (id int)']],
    [
      'a semicolon in a string',
      "insert into t values ('a;b'); select 'it''s;'",
      ["insert into t values ('a;b')", "select 'it''s;'"],
    ],
    ['an escape string', "select E'\\';x'; select 2", ["select E'\\';x'", 'select 2']],
    ['a quoted identifier', 'select 1 as "a;b"; select 2', ['select 1 as "a;b"', 'select 2']],
    [
      'line and nested block comments',
      '-- one; two\nselect 1; /* a /* b; */ c; */ select 2 -- end;',
      ['select 1', 'select 2 -- end;'],
    ],
    [
      'a dollar-quoted function body',
      'create function f() returns int as $$ begin perform 1; return 2; end $$ language plpgsql; select f()',
      ['create function f() returns int as $$ begin perform 1; return 2; end $$ language plpgsql', 'select f()'],
    ],
    [
      'a tagged dollar quote holding $$',
      "do $body$ begin raise notice '$$;'; end $body$; select 1",
      ["do $body$ begin raise notice '$$;'; end $body$", 'select 1'],
    ],
    [
      'multibyte text before a statement',
      "select 'héllo; wörld'; select '日本;語'",
      ["select 'héllo; wörld'", "select '日本;語'"],
    ],
    ['empty statements are dropped', ';;select 1;;;', ['select 1']],
  ];
  it.each(corpus)('%s', async (_name, text, expected) => {
    expect(textsOf(await splitPostgres(text))).toEqual(expected);
  });

  it('gives each statement its offset and kind', async () => {
    const text = "begin; select 'é'; insert into t values (1) returning id; update t set a = 1; commit";
    const statements = await splitPostgres(text);
    expect(statements.map((s) => text.slice(s.offset, s.offset + s.text.length))).toEqual(textsOf(statements));
    expect(statements.map((s) => [s.transactionControl, s.returnsRows])).toEqual([
      [true, false],
      [false, true],
      [false, true],
      [false, false],
      [true, false],
    ]);
  });

  it('reports a syntax error with its line and column and splits nothing', async () => {
    const error = await syntaxError(splitPostgres("select 1;\nselect 'é';\n  selec 2;\nselect 3"));
    expect(error.code).toBe('sql_syntax_error');
    expect([error.line, error.column]).toEqual([3, 3]);
    expect(error.message).toBe('Syntax error at line 3, column 3: syntax error at or near "selec"');
  });

  it('refuses a text with no statements', async () => {
    for (const text of ['', '   ', '-- only a comment', ';;']) {
      expect((await syntaxError(splitPostgres(text))).code).toBe('sql_empty');
    }
  });
});

describe('splitMysql', () => {
  const corpus: Array<[string, string, string[]]> = [
    ['plain statements', 'select 1; select 2;select 3', ['select 1', 'select 2', 'select 3']],
    [
      'strings with semicolons and escapes',
      "insert into t values ('a;b', \"c;d\", 'it\\'s;'); select 1",
      ["insert into t values ('a;b', \"c;d\", 'it\\'s;')", 'select 1'],
    ],
    ['backticks', 'select 1 as `a;b`; select 2', ['select 1 as `a;b`', 'select 2']],
    ['hash, dash and block comments', '# one;\nselect 1; -- two;\n/* three; */ select 2', ['select 1', 'select 2']],
    ['--x is not a comment', 'select 1--1; select 2', ['select 1--1', 'select 2']],
    [
      'a procedure without DELIMITER',
      'CREATE PROCEDURE p(IN n INT) BEGIN DECLARE i INT DEFAULT 0; WHILE i < n DO SET i = i + 1; END WHILE; IF i > 1 THEN SELECT i; ELSE SELECT 0; END IF; END; CALL p(3)',
      [
        'CREATE PROCEDURE p(IN n INT) BEGIN DECLARE i INT DEFAULT 0; WHILE i < n DO SET i = i + 1; END WHILE; IF i > 1 THEN SELECT i; ELSE SELECT 0; END IF; END',
        'CALL p(3)',
      ],
    ],
    [
      'a function with CASE, a label, LOOP and REPEAT',
      'CREATE DEFINER=`root`@`%` FUNCTION f(x INT) RETURNS INT DETERMINISTIC BEGIN DECLARE r INT; l1: LOOP LEAVE l1; END LOOP l1; REPEAT SET x = x - 1; UNTIL x < 0 END REPEAT; SET r = CASE WHEN x > 0 THEN 1 ELSE IF(x = 0, 0, -1) END; CASE r WHEN 1 THEN SET r = 2; ELSE SET r = 3; END CASE; RETURN r; END;\nSELECT f(1)',
      [
        'CREATE DEFINER=`root`@`%` FUNCTION f(x INT) RETURNS INT DETERMINISTIC BEGIN DECLARE r INT; l1: LOOP LEAVE l1; END LOOP l1; REPEAT SET x = x - 1; UNTIL x < 0 END REPEAT; SET r = CASE WHEN x > 0 THEN 1 ELSE IF(x = 0, 0, -1) END; CASE r WHEN 1 THEN SET r = 2; ELSE SET r = 3; END CASE; RETURN r; END',
        'SELECT f(1)',
      ],
    ],
    [
      'a trigger with a body',
      'CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW BEGIN IF NEW.a IS NULL THEN SET NEW.a = 1; END IF; END; INSERT INTO t (a) VALUES (NULL)',
      [
        'CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW BEGIN IF NEW.a IS NULL THEN SET NEW.a = 1; END IF; END',
        'INSERT INTO t (a) VALUES (NULL)',
      ],
    ],
    [
      'a one-statement trigger',
      'CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET NEW.a = 1; SELECT 1',
      ['CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET NEW.a = 1', 'SELECT 1'],
    ],
    [
      'BEGIN as a transaction',
      'BEGIN; INSERT INTO t VALUES (1); COMMIT',
      ['BEGIN', 'INSERT INTO t VALUES (1)', 'COMMIT'],
    ],
    [
      'DELIMITER lines as the mysql client writes them',
      'DELIMITER //\nCREATE PROCEDURE p() BEGIN SELECT 1; END //\nDELIMITER ;\nCALL p();',
      ['CREATE PROCEDURE p() BEGIN SELECT 1; END', 'CALL p()'],
    ],
    [
      'statements sql-parser-cst has no grammar for',
      'SHOW TABLES; GRANT SELECT ON db.* TO u',
      ['SHOW TABLES', 'GRANT SELECT ON db.* TO u'],
    ],
    ['a column named end', 'SELECT start, end FROM t; SELECT 2', ['SELECT start, end FROM t', 'SELECT 2']],
  ];
  it.each(corpus)('%s', async (_name, text, expected) => {
    expect(textsOf(await splitMysql(text, { flavour: 'mariadb', serverCheck: async () => null }))).toEqual(expected);
  });

  it('marks what a dry run can EXPLAIN and what controls the transaction', async () => {
    const statements = await splitMysql(
      'CREATE TABLE `Orders` (id INT); INSERT INTO Orders VALUES (1); REPLACE INTO Orders VALUES (2); UPDATE Orders SET id = 3; DELETE FROM Orders; SELECT 1; START TRANSACTION; COMMIT',
      { flavour: 'mysql' },
    );
    expect(statements.map((s) => s.explainable)).toEqual([false, true, true, true, true, true, false, false]);
    expect(statements.map((s) => s.transactionControl)).toEqual([false, false, false, false, false, false, true, true]);
    expect(statements[0]?.definesTable).toBe('orders');
  });

  it('reports a syntax error sql-parser-cst finds when there is no server to ask', async () => {
    const error = await syntaxError(splitMysql('select 1;\n  selec 2 from t;', { flavour: 'mysql' }));
    expect(error.code).toBe('sql_syntax_error');
    expect(error.line).toBe(2);
  });

  it("reports the server's syntax error where sql-parser-cst fails too", async () => {
    const error = await syntaxError(
      splitMysql('select 1;\nCREATE PROCEDURE p() BEGIN SELEC 1; END;', {
        flavour: 'mariadb',
        serverCheck: async () => "You have an error in your SQL syntax; check the manual near '1; END' at line 1",
      }),
    );
    expect([error.line, error.column]).toEqual([2, 34]);
  });
});

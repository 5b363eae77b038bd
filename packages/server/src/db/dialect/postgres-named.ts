import { createHash } from 'node:crypto';
import type { CompiledQuery } from 'kysely';
import type pg from 'pg';
import type { PreparedQuery } from '../sql-text.js';

// Statements prepared by name inside transactions. Kysely's connection hands pg only a text and its values, so
// every statement of a write was parsed and planned again by PostgreSQL, which cost it more than running them.
// A named statement (PreparedQuery: a record write's insert, named by its table and schema version, or the
// statement joined from deferred ones) therefore travels with its name in a leading comment, and the pool's
// clients send a text that starts with one under that name: PostgreSQL parses and plans it once per connection
// and afterwards only binds and runs it. The name rides in the text because one text may stand for two plans
// (the same insert before and after a column was added): a name is never reused for another text.

const PREFIX = '/*basalt:';
const CACHED_PLAN_CHANGED = '0A000';

type QueryFn = (...args: unknown[]) => unknown;

/** NamedStatements send named statements of transactions under their name on one pool's clients. */
export class NamedStatements {
  readonly #failed = new Set<string>();

  /** attach makes every client `pool` connects send a text carrying a name under that name. */
  attach(pool: pg.Pool): void {
    pool.on('connect', (client) => {
      const plain = client.query.bind(client) as QueryFn;
      (client as unknown as { query: QueryFn }).query = (first: unknown, ...rest: unknown[]) => {
        if (typeof first !== 'string' || !first.startsWith(PREFIX)) return plain(first, ...rest);
        const name = first.slice(PREFIX.length, first.indexOf('*/'));
        return plain({ name, text: first, values: rest[0] }, ...rest.slice(1));
      };
    });
  }

  /** named is the query to run for `query`: with its name in the text when it has one that never failed. */
  named<R>(query: CompiledQuery<R>): CompiledQuery<R> {
    const name = (query as Partial<PreparedQuery>).preparedName;
    if (name === undefined || this.#failed.has(name)) return query;
    return { ...query, sql: `${PREFIX}${name}*/${query.sql}` };
  }

  /**
   * forget stops naming a statement whose prepared plan PostgreSQL refused ("cached plan must not change result
   * type": a schema changed under a statement in flight); it runs unnamed from then on.
   */
  forget(query: CompiledQuery, error: unknown): void {
    const name = (query as Partial<PreparedQuery>).preparedName;
    if (name !== undefined && (error as { code?: string }).code === CACHED_PLAN_CHANGED) this.#failed.add(name);
  }
}

/** nameOfText names a text after its own hash, under a prefix that says what it is. */
export function nameOfText(prefix: string, text: string): string {
  return `${prefix}_${createHash('sha256').update(text).digest('hex').slice(0, 20)}`;
}

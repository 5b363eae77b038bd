import { accountTag } from '../../db/bus/account-events.js';
import type { Db } from '../../db/database.js';
import { type BusCache, busCache } from '../../lib/cache/bus-cache.js';
import { findTableDefinitionById, findTableDefinitionByName } from '../table-definitions/table-definitions.store.js';
import type { TableDefinition } from './table-definition.js';
import './table-events.js';

// The record APIs' hot path must not read a table's schema per request: definitions are kept per process in a bus
// cache (lib/cache), by (account, id) and by (account, lower-cased name). Every committed change publishes
// `table.changed`, which forgets the table on every node. The TTL (dialect.userTables.definitionCacheTtlMs: never
// on SQLite, whose one process hears everything) is only a backstop for an event that did not arrive; a table in
// use is read again in the background before its entry ends. A table that does not exist is not remembered.

const MAX_ENTRIES = 20_000;
const TABLE_CACHE = Symbol('table definitions');

/** TableCache finds the definitions of one account's tables by id or name. */
export interface TableCache {
  byId(accountId: string, id: number): TableDefinition | null | Promise<TableDefinition | null>;
  byName(accountId: string, name: string): TableDefinition | null | Promise<TableDefinition | null>;
  /** peekByName answers a definition this process holds, without waiting; undefined when it must be read. */
  peekByName(accountId: string, name: string): TableDefinition | null | undefined;
  /** forget drops a table (a change noticed without its event: another node dropped it a moment ago). */
  forget(tableId: number): void;
}

const tableTag = (tableId: number) => `table:${tableId}`;
const idKey = (accountId: string, id: number) => `${accountId}\u0000#${id}`;
const nameKey = (accountId: string, name: string) => `${accountId}\u0000${name.toLowerCase()}`;

/** tableCacheOf returns this process's cache of one open database, kept exact by the bus. */
export function tableCacheOf(db: Db): TableCache {
  return db.state(TABLE_CACHE, () => {
    const definitions: BusCache<TableDefinition | null> = busCache(db, {
      load: (key) => {
        const at = key.indexOf('\u0000');
        const accountId = key.slice(0, at);
        const rest = key.slice(at + 1);
        return rest.startsWith('#')
          ? findTableDefinitionById(db.kysely, accountId, Number(rest.slice(1)))
          : findTableDefinitionByName(db.kysely, accountId, rest);
      },
      invalidatedBy: {
        'table.changed': ({ tableId }) => ({ tags: [tableTag(tableId)] }),
        'account.deleted': ({ accountId }) => ({ tags: [accountTag(accountId)] }),
      },
      tagsOf: (_key, table) => (table ? [tableTag(table.id), accountTag(table.accountId)] : []),
      keep: (table) => table !== null,
      ttlMs: db.dialect.userTables.definitionCacheTtlMs,
      maxEntries: MAX_ENTRIES,
    });
    return {
      byId: (accountId, id) => definitions.get(idKey(accountId, id)),
      byName: (accountId, name) => definitions.get(nameKey(accountId, name)),
      peekByName: (accountId, name) => definitions.peek(nameKey(accountId, name)),
      forget: (tableId) => definitions.forget({ tags: [tableTag(tableId)] }),
    };
  });
}

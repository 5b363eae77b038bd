// The event a committed change of a table definition publishes on the bus (db/bus): every node drops the
// definition from its cache (table-cache.ts), and later features (the schema editor, realtime) hear it too.

/** TableChangeKind is what happened to the definition. */
export type TableChangeKind = 'created' | 'updated' | 'deleted';

/** TableChanged names the table whose definition changed. */
export interface TableChanged {
  accountId: string;
  tableId: number;
  kind: TableChangeKind;
}

declare module '../../db/bus/event-bus.js' {
  interface BusEvents {
    'table.changed': TableChanged;
  }
}

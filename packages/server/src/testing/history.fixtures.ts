import type { TableSchema } from '@basalt/shared';
import {
  createRecord,
  deleteRecords,
  listRecords,
  type RecordInput,
  type RecordRow,
  recordIdCondition,
  updateRecords,
} from '../features/records/records.service.js';
import { createTable, findTableById, type TableDefinition, updateTable } from '../features/tables/tables.service.js';
import type { AccountName, SignedInAccount } from './tables.fixtures.js';
import type { TestResponse, TestServer } from './test-server.js';

// Helpers of the history suites: one account's table changed through the real services (the one write path),
// the state of a table as a restore must bring it back, and the history calls over HTTP.

/** TableState is what a restore must bring back: the definition and every record (updated_at aside). */
export interface TableState {
  name: string;
  description: string | null;
  schema: TableSchema;
  /** Every record without its updated_at (a revert's write sets it to its own time). */
  rows: Array<{ id: number } & Record<string, unknown>>;
}

/** HistoryTable drives one table of one account. */
export class HistoryTable {
  constructor(
    readonly server: TestServer,
    readonly owner: SignedInAccount,
    readonly id: number,
  ) {}

  /** create makes a table through the tables service and returns its driver. */
  static async create(
    server: TestServer,
    owner: SignedInAccount,
    name: string,
    schema: Record<string, { type: string; required?: boolean; unique?: boolean }>,
  ): Promise<HistoryTable> {
    const created = await createTable(server.app.basalt.db, owner, { name, schema });
    return new HistoryTable(server, owner, created.id);
  }

  private get db() {
    return this.server.app.basalt.db;
  }

  /** definition reads the table, or throws when it does not exist. */
  async definition(): Promise<TableDefinition> {
    const table = await findTableById(this.db, this.owner, this.id);
    if (!table) throw new Error(`table ${this.id} does not exist`);
    return table;
  }

  insert(values: RecordInput): Promise<RecordRow> {
    return this.definition().then((table) => createRecord(this.db, this.owner, table, values));
  }

  async update(id: number, patch: RecordInput): Promise<RecordRow | undefined> {
    const [row] = await updateRecords(this.db, this.owner, await this.definition(), recordIdCondition(id), patch);
    return row;
  }

  async remove(id: number): Promise<void> {
    await deleteRecords(this.db, this.owner, await this.definition(), recordIdCondition(id));
  }

  /** changeSchema changes the table through the tables service (name, description, schema, renames). */
  async changeSchema(change: Record<string, unknown>): Promise<void> {
    await updateTable(this.db, this.owner, this.id, change);
  }

  /** state is the table's definition and records now, or null when it does not exist. */
  async state(): Promise<TableState | null> {
    const table = await findTableById(this.db, this.owner, this.id);
    if (!table) return null;
    const rows = (await listRecords(this.db, this.owner, table)).map(({ updated_at: _, ...row }) => row);
    return { name: table.name, description: table.description, schema: table.schema, rows };
  }

  /** history lists the table's changes over HTTP, newest first. */
  async history(limit = 100): Promise<Array<{ id: number; changeType: string; revertOf: number | null }>> {
    const res = await this.server.request('GET', `/api/history?tableId=${this.id}&limit=${limit}`, {
      headers: this.owner.headers,
    });
    if (res.status !== 200) throw new Error(`history: ${res.status} ${res.text}`);
    return res.body.data;
  }

  /** latestChangeId is the id of the table's newest change. */
  async latestChangeId(): Promise<number> {
    const [latest] = await this.history(1);
    if (!latest) throw new Error('the table has no change');
    return latest.id;
  }
}

/** historyCall posts to a history or checkpoint action as an account (or without credentials). */
export function historyCall(
  server: TestServer,
  accounts: Record<AccountName, SignedInAccount>,
  path: string,
  as: AccountName | null = 'alice',
  json?: unknown,
): Promise<TestResponse> {
  return server.request('POST', path, {
    headers: as ? accounts[as].headers : {},
    ...(json === undefined ? {} : { json }),
  });
}

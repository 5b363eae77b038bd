import type { Db } from '../../db/database.js';
import type { TableDefinition } from '../../db/user-tables.js';
import type { Callers } from '../../http/caller.js';
import { badRequest, notFound } from '../../http/errors.js';
import { idOf, parseId } from '../../http/ids.js';
import { answer, type Call, type Route } from '../../http/routes/route.js';
import type { Actor } from '../../lib/actor/actor.js';
import { actorOn } from '../project-access/project-access.js';
import {
  createRecord,
  createRecords,
  deleteRecords,
  getRecord,
  type RecordInput,
  recordIdCondition,
  updateRecords,
} from '../records/records.service.js';
import { findTableById } from './tables.service.js';

// The console's record calls by table id, for the caller's own tables and the tables shared with it through a
// project, through the one records path with the actor for that table (a member acts with its role):
//   POST   /api/tables/:id/records                                  {…fields} → 201 the record
//                                                                   [{…fields}, …] → 201 the records (1 to 1000)
//   GET    /api/tables/:id/records/:recordId                        the record
//   PATCH  /api/tables/:id/records/:recordId                        {…fields} → the record
//   DELETE /api/tables/:id/records/:recordId                        {success, message, record}
// The grid's filtered list, its bulk delete and its CSV export are in features/records-grid. Unknown tables and
// records, and tables the caller does not reach, are 404; a role that may not is 403.

const NOT_AN_OBJECT = "The request body must be a JSON object of the table's fields";

function bodyOf(body: unknown): RecordInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('invalid_body', NOT_AN_OBJECT);
  return body as RecordInput;
}

/** MAX_CREATE_ROWS is how many records one POST of a list may create (a CSV import sends its rows in parts). */
export const MAX_CREATE_ROWS = 1000;

// A POST of a list creates every record in it in one transaction (all or none), and answers them as stored.
function rowsOf(body: unknown[]): RecordInput[] {
  if (body.length === 0 || body.length > MAX_CREATE_ROWS) {
    throw badRequest('invalid_body', `A list of records must have 1 to ${MAX_CREATE_ROWS} records`);
  }
  return body.map(bodyOf);
}

const recordNotFound = () => notFound('Record not found', 'record_not_found');

/**
 * reachTable finds the table a call's `:id` names, with the actor for it (a project member acts with its role), and
 * the `:recordId` if any (UNKNOWN_ID when absent or malformed); 404 when the caller does not reach the table.
 */
export async function reachTable(
  db: Db,
  call: Call,
): Promise<{ actor: Actor; table: TableDefinition; recordId: number }> {
  const tableId = idOf(call);
  const actor = await actorOn(db, call.actor, { tableId });
  const table = await findTableById(db, actor, tableId);
  if (!table) throw notFound('Table not found', 'table_not_found');
  return { actor, table, recordId: parseId(call.params.recordId) };
}

/** tableRecordsRoutes are the console's record routes under /api/tables/:id/records. */
export function tableRecordsRoutes({ db, callers }: { db: Db; callers: Callers }): Route[] {
  const user = { family: 'console', admit: [callers.user] } as const;

  const reach = (call: Call) => reachTable(db, call);

  return [
    {
      ...user,
      method: 'POST',
      url: '/api/tables/:id/records',
      handler: async (call) => {
        const { actor, table } = await reach(call);
        if (Array.isArray(call.body)) {
          return answer(await createRecords(db, actor, table, rowsOf(call.body)), { status: 201 });
        }
        return answer(await createRecord(db, actor, table, bodyOf(call.body)), { status: 201 });
      },
    },
    {
      ...user,
      method: 'GET',
      url: '/api/tables/:id/records/:recordId',
      handler: async (call) => {
        const { actor, table, recordId } = await reach(call);
        const record = recordId > 0 ? await getRecord(db, actor, table, recordId) : null;
        if (!record) throw recordNotFound();
        return record;
      },
    },
    {
      ...user,
      method: 'PATCH',
      url: '/api/tables/:id/records/:recordId',
      handler: async (call) => {
        const { actor, table, recordId } = await reach(call);
        const patch = bodyOf(call.body);
        if (recordId < 1) throw recordNotFound();
        const [record] = await updateRecords(db, actor, table, recordIdCondition(recordId), patch);
        // An empty patch changes nothing (the role was still checked): the record as it is.
        const current =
          record ?? (Object.keys(patch).length === 0 ? await getRecord(db, actor, table, recordId) : null);
        if (!current) throw recordNotFound();
        return current;
      },
    },
    {
      ...user,
      method: 'DELETE',
      url: '/api/tables/:id/records/:recordId',
      handler: async (call) => {
        const { actor, table, recordId } = await reach(call);
        if (recordId < 1) throw recordNotFound();
        const [record] = await deleteRecords(db, actor, table, recordIdCondition(recordId));
        if (!record) throw recordNotFound();
        return { success: true, message: 'Record deleted successfully', record };
      },
    },
  ];
}

import { useNavigate } from 'react-router';
import { FormDialog } from '@/components/ui/form-dialog';
import { useTableColumns, useTableNames } from './ColumnsEditor';
import type { CreatedTableState } from './CreatedTableNotice';
import { CreateTableForm } from './CreateTableForm';
import { TablesPage } from './TablesPage';
import { useCreateTableMutation } from './tables.queries';

/**
 * CreateTablePage is /tables/new and /tables/create: the "Create New Table" modal over the tables list.
 * Cancel or close returns to /tables; so does success, with the "Table created" toast, and the list then says
 * "Table created successfully" with the table's name (CreatedTableNotice).
 */
export function CreateTablePage() {
  const navigate = useNavigate();
  const creation = useCreateTableMutation();
  const close = () => navigate('/tables');
  const tableNames = useTableNames();
  const tableColumns = useTableColumns();
  return (
    <>
      <TablesPage />
      <FormDialog
        open
        onOpenChange={(open) => !open && close()}
        className="sm:max-w-2xl"
        title="Create New Table"
        description="Name the table and define its columns. Every table has an id column that numbers its records."
      >
        <CreateTableForm
          tableNames={tableNames}
          tableColumns={tableColumns}
          isPending={creation.isPending}
          onCancel={close}
          onSubmit={(request) =>
            creation.mutate(request, {
              onSuccess: (table) =>
                navigate('/tables', { state: { createdTable: table.name } satisfies CreatedTableState }),
            })
          }
        />
      </FormDialog>
    </>
  );
}

import type { TableResponse } from '@basalt/shared';
import { useNavigate } from 'react-router';
import { FormDialog } from '@/components/ui/form-dialog';
import type { ToastInput } from '@/lib/toast';
import { CreateTableForm } from './CreateTableForm';
import { TablesPage } from './TablesPage';
import { useCreateTableMutation } from './tables.queries';

// Here the person created the table in a page of its own and lands on the list: say so, and name the table.
const createdHereToast = (table: TableResponse): ToastInput => ({
  title: 'Table created successfully',
  description: `"${table.name}" is in your tables, ready for its first records.`,
  variant: 'success',
});

/**
 * CreateTablePage is /tables/new and /tables/create: the "Create New Table" modal over the tables list.
 * Cancel or close returns to /tables; so does success, with the "Table created successfully" toast.
 */
export function CreateTablePage() {
  const navigate = useNavigate();
  const creation = useCreateTableMutation({ createdToast: createdHereToast });
  const close = () => navigate('/tables');
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
          isPending={creation.isPending}
          onCancel={close}
          onSubmit={(request) => creation.mutate(request, { onSuccess: close })}
        />
      </FormDialog>
    </>
  );
}

import type { TableResponse } from '@basalt/shared';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { SharedTablesPanel } from '@/features/projects/SharedTablesPanel';
import { CreatedTableNotice } from './CreatedTableNotice';
import { DeleteTableDialog } from './DeleteTableDialog';
import { TablesList } from './TablesList';

/** TablesPage is /tables: the account's tables, a New Table button, and each row's menu. */
export function TablesPage() {
  const [deleting, setDeleting] = useState<TableResponse | null>(null);
  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader
        title="Tables"
        description="Create and manage your database tables and their records."
        actions={
          <Button asChild>
            <Link to="/tables/new">
              <Plus />
              New Table
            </Link>
          </Button>
        }
      />
      <CreatedTableNotice />
      <Card className="overflow-hidden">
        <TablesList onDelete={setDeleting} />
      </Card>
      <SharedTablesPanel />
      <DeleteTableDialog table={deleting} onClose={() => setDeleting(null)} />
    </div>
  );
}

import type { TableResponse } from '@basalt/shared';
import { Eye, MoreHorizontal, Pencil, Trash2 } from 'lucide-react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';

/** TableRowMenu is a table row's menu: View Data, Edit Schema, Delete. */
export function TableRowMenu({ table, onDelete }: { table: TableResponse; onDelete: (table: TableResponse) => void }) {
  const navigate = useNavigate();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label={`Actions for ${table.name}`}
          // The row itself opens the table; the menu must not.
          onClick={(e) => e.stopPropagation()}
        >
          <MoreHorizontal />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" onClick={(e) => e.stopPropagation()}>
        <DropdownMenuItem onSelect={() => navigate(`/tables/${table.id}`)}>
          <Eye />
          View Data
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => navigate(`/tables/${table.id}/edit`)}>
          <Pencil />
          Edit Schema
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem variant="destructive" onSelect={() => onDelete(table)}>
          <Trash2 />
          Delete
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

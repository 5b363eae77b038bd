import type { TableResponse } from '@basalt/shared';
import { Pencil } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';

/** TableSchemaTab lists a table's columns with their type and Required / Unique flags. */
export function TableSchemaTab({ table }: { table: TableResponse }) {
  const columns = Object.entries(table.schema);
  return (
    <Card className="overflow-hidden">
      <CardHeader className="flex-row items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <CardTitle>Columns</CardTitle>
          <CardDescription>
            {columns.length} column{columns.length === 1 ? '' : 's'}. Every record also has created_at and updated_at.
          </CardDescription>
        </div>
        <Button asChild variant="outline" size="sm">
          <Link to={`/tables/${table.id}/edit`}>
            <Pencil />
            Edit Schema
          </Link>
        </Button>
      </CardHeader>
      <Table>
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            <TableHead>Column</TableHead>
            <TableHead>Type</TableHead>
            <TableHead>Flags</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {columns.map(([name, column]) => (
            <TableRow key={name}>
              <TableCell className="font-mono text-[13px] font-medium">{name}</TableCell>
              <TableCell>
                <Badge variant="outline">{column.type}</Badge>
              </TableCell>
              <TableCell>
                <div className="flex flex-wrap gap-1.5">
                  {name === 'id' && <Badge variant="secondary">System</Badge>}
                  {column.required && <Badge>Required</Badge>}
                  {column.unique && <Badge variant="warning">Unique</Badge>}
                  {column.indexed && <Badge variant="outline">Indexed</Badge>}
                  {column.search && <Badge variant="outline">Searchable</Badge>}
                  {column.default !== undefined && column.default !== null && (
                    <Badge variant="outline" className="font-mono">
                      default {JSON.stringify(column.default)}
                    </Badge>
                  )}
                  {!column.required &&
                    !column.unique &&
                    !column.indexed &&
                    !column.search &&
                    column.default === undefined && <span className="text-muted-foreground">—</span>}
                </div>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Card>
  );
}

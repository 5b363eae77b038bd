import { Skeleton } from './skeleton';
import { TableCell, TableRow } from './table';

/** SkeletonCell is one placeholder cell: the skeleton's size, and the cell's own class where it differs. */
export interface SkeletonCell {
  skeleton: string;
  cell?: string;
}

/** SkeletonTableRows stands in for a table's rows while they load: `rows` rows shaped like the real ones. */
export function SkeletonTableRows({ rows, cells, testId }: { rows: number; cells: SkeletonCell[]; testId?: string }) {
  return Array.from({ length: rows }, (_, row) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
    <TableRow key={row} data-testid={testId}>
      {cells.map((cell, column) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a placeholder row's cells are fixed.
        <TableCell key={column} className={cell.cell}>
          <Skeleton className={cell.skeleton} />
        </TableCell>
      ))}
    </TableRow>
  ));
}

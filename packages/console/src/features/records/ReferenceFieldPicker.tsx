import { Search } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ReferencePicker } from './ReferencePicker';
import type { ReferenceTarget } from './reference-labels';

/**
 * ReferenceFieldPicker is the record form's Pick button beside a reference column's id: the same picker as the
 * grid's cells, whose choice fills the field.
 */
export function ReferenceFieldPicker({
  name,
  target,
  value,
  nullable,
  onPick,
}: {
  name: string;
  target: ReferenceTarget;
  value: number | null;
  nullable: boolean;
  onPick: (id: number | null) => void;
}) {
  const [open, setOpen] = useState(false);
  const button = (
    <Button variant="outline" aria-label={`Pick ${name}`} onClick={() => setOpen(true)}>
      <Search />
      Pick
    </Button>
  );
  if (!open || !target.table) return button;
  return (
    <ReferencePicker
      column={name}
      table={target.table}
      labelColumn={target.labelColumn}
      value={value}
      nullable={nullable}
      onCancel={() => setOpen(false)}
      onPick={(id) => {
        onPick(id);
        setOpen(false);
      }}
    >
      {button}
    </ReferencePicker>
  );
}

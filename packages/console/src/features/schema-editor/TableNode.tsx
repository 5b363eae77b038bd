import type { LayoutElement, PresenceUser } from '@basalt/shared';
import { Handle, type Node, type NodeProps, Position } from '@xyflow/react';
import { CornerDownRight, KeyRound, Plus, Trash2, X } from 'lucide-react';
import { cn } from '@/lib/cn';
import {
  addField,
  canReference,
  DESIGN_FIELD_TYPES,
  deleteField,
  fieldHandle,
  setFieldReference,
  updateField,
} from './layout-edits';

// One table of the Schema Editor's canvas: its name, its fields (name, type, primary, and the table a number field
// references: an arrow from the field to that table, drawn by the canvas), and who else has it selected (a ring in
// their colour with their initials). Inputs are `nodrag` so that typing never moves it. A field's reference is
// picked under it, or drawn by dragging from the field's dot to a table.

/** TableNodeData is what a table node draws and how it reports edits. */
export type TableNodeData = {
  element: LayoutElement;
  canEdit: boolean;
  selectedBy: PresenceUser[];
  onChange: (element: LayoutElement) => void;
  onDelete: () => void;
  /** The names of the layout's tables, which a number field may reference. */
  tableNames: string[];
};

/** TableFlowNode is a table node of the canvas. */
export type TableFlowNode = Node<TableNodeData, 'table'>;

const inputClass =
  'nodrag min-w-0 rounded border border-transparent bg-transparent px-1 py-0.5 text-xs outline-none hover:border-input focus:border-ring disabled:hover:border-transparent';

// The table a number field references, picked from the layout's tables (one no longer there stays listed).
function FieldReference({
  field,
  tableNames,
  canEdit,
  onChange,
}: {
  field: { id: string; name: string; table: string };
  tableNames: string[];
  canEdit: boolean;
  onChange: (table: string) => void;
}) {
  const names = [...new Set([...tableNames, ...(field.table ? [field.table] : [])])];
  return (
    <div className="flex items-center gap-1 pl-5 text-[11px] text-muted-foreground">
      <CornerDownRight className="size-3" aria-hidden />
      <select
        aria-label={`${field.name} references`}
        className={cn(inputClass, 'flex-1 text-[11px]', field.table && 'text-foreground')}
        value={field.table}
        disabled={!canEdit}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">no reference</option>
        {names.map((name) => (
          <option key={name} value={name}>
            references {name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** TableNode draws one table element. */
export function TableNode({ data, selected }: NodeProps<TableFlowNode>) {
  const { element, canEdit, selectedBy, onChange, onDelete, tableNames } = data;
  const ring = selectedBy[0]?.color;
  return (
    <div
      data-testid={`table-node-${element.name}`}
      className={cn('w-64 rounded-lg border bg-card text-card-foreground shadow-sm', selected && 'ring-2 ring-primary')}
      style={ring && !selected ? { boxShadow: `0 0 0 2px ${ring}` } : undefined}
    >
      <div className="relative flex items-center gap-1 border-b bg-muted/50 px-2 py-1.5">
        <Handle type="target" position={Position.Left} id="table" isConnectable={canEdit} className="!bg-primary" />
        <Handle
          type="target"
          position={Position.Right}
          id="table-right"
          isConnectable={canEdit}
          className="!bg-primary"
        />
        <input
          aria-label="Table name"
          className={cn(inputClass, 'flex-1 text-sm font-semibold')}
          value={element.name}
          disabled={!canEdit}
          onChange={(event) => onChange({ ...element, name: event.target.value || ' ' })}
        />
        {selectedBy.map((user) => (
          <span
            key={user.accountId}
            title={`${user.name} is here`}
            className="flex size-5 items-center justify-center rounded-full text-[9px] font-semibold text-white"
            style={{ backgroundColor: user.color }}
          >
            {user.initials}
          </span>
        ))}
        {canEdit && (
          <button
            type="button"
            aria-label={`Delete ${element.name}`}
            className="nodrag rounded p-1 text-muted-foreground hover:bg-destructive/10 hover:text-destructive"
            onClick={onDelete}
          >
            <Trash2 className="size-3.5" />
          </button>
        )}
      </div>
      <ul className="divide-y">
        {element.fields.map((field, index) => (
          <li
            key={field.id ?? `${field.name}-${index}`}
            className="relative grid grid-cols-[minmax(0,1fr)] gap-0.5 px-2 py-1"
          >
            <div className="flex min-w-0 items-center gap-1">
              <button
                type="button"
                aria-label={field.primary ? `${field.name} is the primary key` : `Make ${field.name} the primary key`}
                aria-pressed={Boolean(field.primary)}
                disabled={!canEdit || !field.id}
                className={cn('nodrag rounded p-0.5', field.primary ? 'text-warning' : 'text-muted-foreground/40')}
                onClick={() => field.id && onChange(updateField(element, field.id, { primary: !field.primary }))}
              >
                <KeyRound className="size-3" />
              </button>
              <input
                aria-label="Field name"
                className={cn(inputClass, 'flex-1 font-mono')}
                value={field.name}
                disabled={!canEdit || !field.id}
                onChange={(event) =>
                  field.id && onChange(updateField(element, field.id, { name: event.target.value || '_' }))
                }
              />
              <select
                aria-label={`Type of ${field.name}`}
                className={cn(inputClass, 'w-20 text-muted-foreground')}
                value={field.type}
                disabled={!canEdit || !field.id}
                onChange={(event) => field.id && onChange(updateField(element, field.id, { type: event.target.value }))}
              >
                {[...new Set([field.type, ...DESIGN_FIELD_TYPES])].map((type) => (
                  <option key={type} value={type}>
                    {type}
                  </option>
                ))}
              </select>
              {canEdit && field.id && (
                <button
                  type="button"
                  aria-label={`Delete field ${field.name}`}
                  className="nodrag rounded p-0.5 text-muted-foreground hover:text-destructive"
                  onClick={() => field.id && onChange(deleteField(element, field.id))}
                >
                  <X className="size-3" />
                </button>
              )}
            </div>
            {field.id && canReference(field) && (
              <FieldReference
                field={{ id: field.id, name: field.name, table: field.references?.table ?? '' }}
                tableNames={tableNames}
                canEdit={canEdit}
                onChange={(table) => field.id && onChange(setFieldReference(element, field.id, table || null))}
              />
            )}
            {field.id &&
              ([Position.Right, Position.Left] as const).map((side) => (
                <Handle
                  key={side}
                  type="source"
                  position={side}
                  id={side === Position.Right ? fieldHandle(field.id ?? '') : `${fieldHandle(field.id ?? '')}-left`}
                  isConnectable={canEdit && canReference(field) && side === Position.Right}
                  className={cn((!field.references || side === Position.Left) && '!opacity-0')}
                />
              ))}
          </li>
        ))}
      </ul>
      {canEdit && (
        <button
          type="button"
          className="nodrag flex w-full items-center gap-1 border-t px-2 py-1 text-xs text-muted-foreground hover:bg-accent"
          onClick={() => onChange(addField(element))}
        >
          <Plus className="size-3" /> Add field
        </button>
      )}
    </div>
  );
}

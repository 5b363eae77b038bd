import type { LayoutElement, PresenceUser } from '@basalt/shared';
import {
  applyNodeChanges,
  Background,
  type Connection,
  Controls,
  type Edge,
  MarkerType,
  MiniMap,
  type NodeChange,
  ReactFlow,
  ReactFlowProvider,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTheme } from '@/lib/theme-provider';
import { deleteTable, referenceEdges, setFieldReference, updateTable } from './layout-edits';
import { type TableFlowNode, TableNode } from './TableNode';

// The canvas of table elements (@xyflow/react). Nodes are kept in state so that xyflow's measurements stay;
// their position and data follow the layout, and a drag edits the layout as it goes (the room sends one update
// at a time, so a drag costs no more than the connection carries).

const nodeTypes = { table: TableNode };

/** SchemaCanvasProps are the layout to draw and how to change it. */
export interface SchemaCanvasProps {
  elements: LayoutElement[];
  canEdit: boolean;
  self: string | null;
  users: PresenceUser[];
  onEdit: (change: (elements: LayoutElement[]) => LayoutElement[]) => void;
  onSelect: (elementIds: string[]) => void;
}

function Canvas({ elements, canEdit, self, users, onEdit, onSelect }: SchemaCanvasProps) {
  const [nodes, setNodes] = useState<TableFlowNode[]>([]);
  const selected = useRef<string[]>([]);
  const { resolvedTheme } = useTheme();

  const selectedBy = useMemo(() => {
    const map = new Map<string, PresenceUser[]>();
    for (const user of users) {
      if (user.accountId === self) continue;
      for (const id of user.selection) map.set(id, [...(map.get(id) ?? []), user]);
    }
    return map;
  }, [users, self]);

  // One arrow per reference, from the field to the table it points at, leaving and entering on the sides that face
  // each other (a table to the left of the one it references points left); a tree loops on the right.
  const edges = useMemo((): Edge[] => {
    const at = new Map(nodes.map((node) => [node.id, node.position.x]));
    return referenceEdges(elements).map((edge) => {
      const leftward = edge.source !== edge.target && (at.get(edge.source) ?? 0) > (at.get(edge.target) ?? 0);
      return {
        ...edge,
        sourceHandle: leftward ? `${edge.sourceHandle}-left` : edge.sourceHandle,
        targetHandle: leftward || edge.source === edge.target ? 'table-right' : 'table',
        type: 'smoothstep',
        markerEnd: { type: MarkerType.ArrowClosed, width: 18, height: 18 },
        style: { strokeWidth: 1.5 },
        className: 'reference-edge',
        selectable: false,
      };
    });
  }, [elements, nodes]);
  const tableNames = useMemo(() => elements.map((e) => e.name.trim()), [elements]);

  // Dragging from a number field's dot to a table makes the field reference that table.
  const onConnect = useCallback(
    ({ source, sourceHandle, target }: Connection) => {
      const fieldId = sourceHandle?.replace(/^field-/, '').replace(/-left$/, '');
      const table = elements.find((e) => e.id === target)?.name.trim();
      if (!canEdit || !fieldId || !table) return;
      onEdit((all) => updateTable(all, source, (element) => setFieldReference(element, fieldId, table)));
    },
    [canEdit, elements, onEdit],
  );

  useEffect(() => {
    setNodes((previous) => {
      const byId = new Map(previous.map((node) => [node.id, node]));
      return elements.map((element, index): TableFlowNode => {
        const old = byId.get(element.id);
        const position = old?.dragging
          ? old.position
          : (element.position ?? { x: 40 + (index % 4) * 300, y: 40 + Math.floor(index / 4) * 260 });
        return {
          ...(old ?? {}),
          id: element.id,
          type: 'table',
          position,
          draggable: canEdit,
          data: {
            element,
            canEdit,
            selectedBy: selectedBy.get(element.id) ?? [],
            onChange: (next) => onEdit((all) => updateTable(all, element.id, () => next)),
            onDelete: () => onEdit((all) => deleteTable(all, element.id)),
            tableNames,
          },
        };
      });
    });
  }, [elements, canEdit, selectedBy, onEdit, tableNames]);

  const onNodesChange = useCallback(
    (changes: NodeChange<TableFlowNode>[]) => {
      setNodes((current) => applyNodeChanges(changes, current));
      const moves = changes.flatMap((c) => (c.type === 'position' && c.position ? [c] : []));
      if (moves.length > 0 && canEdit) {
        onEdit((all) =>
          all.map((element) => {
            const move = moves.find((m) => m.id === element.id);
            return move?.position
              ? { ...element, position: { x: Math.round(move.position.x), y: Math.round(move.position.y) } }
              : element;
          }),
        );
      }
      const selections = changes.flatMap((c) => (c.type === 'select' ? [c] : []));
      if (selections.length > 0) {
        const next = new Set(selected.current);
        for (const change of selections) {
          if (change.selected) next.add(change.id);
          else next.delete(change.id);
        }
        // xyflow repeats a node's selection when the node is updated: only a real change is announced, or two
        // editors' presence answers would keep each other going.
        const changed = next.size !== selected.current.length || selected.current.some((id) => !next.has(id));
        selected.current = [...next];
        if (changed) onSelect(selected.current);
      }
    },
    [canEdit, onEdit, onSelect],
  );

  return (
    <ReactFlow
      nodes={nodes}
      edges={edges}
      nodeTypes={nodeTypes}
      onNodesChange={onNodesChange}
      onConnect={onConnect}
      colorMode={resolvedTheme === 'dark' ? 'dark' : 'light'}
      fitView
      fitViewOptions={{ maxZoom: 1 }}
      minZoom={0.2}
      deleteKeyCode={null}
      proOptions={{ hideAttribution: true }}
    >
      <Background gap={20} />
      <Controls showInteractive={false} />
      {/* Top right: the bottom right corner of the screen holds the Undo and help buttons. */}
      <MiniMap pannable zoomable position="top-right" className="hidden sm:block" />
    </ReactFlow>
  );
}

/** SchemaCanvas is the Schema Editor's canvas. */
export function SchemaCanvas(props: SchemaCanvasProps) {
  return (
    <ReactFlowProvider>
      <Canvas {...props} />
    </ReactFlowProvider>
  );
}

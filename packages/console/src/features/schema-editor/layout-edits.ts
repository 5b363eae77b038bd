import type { LayoutElement, LayoutField } from '@basalt/shared';

// The Schema Editor's edits of a layout's elements, as pure functions. Ids are random so that two editors adding at once never collide.

const newId = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

/** DESIGN_FIELD_TYPES are the field types the editor offers (mapped to Basalt's six when tables are created). */
export const DESIGN_FIELD_TYPES = [
  'integer',
  'number',
  'string',
  'text',
  'boolean',
  'date',
  'date_only',
  'datetime',
  'json',
  'array',
];

/** nextTableName is "Table N" for the first N not taken. */
export function nextTableName(elements: readonly LayoutElement[]): string {
  const taken = new Set(elements.map((e) => e.name));
  let n = elements.length + 1;
  while (taken.has(`Table ${n}`)) n++;
  return `Table ${n}`;
}

/** addTable adds "Table N" with the fields id (integer, primary) and name (string), beside the others. */
export function addTable(elements: readonly LayoutElement[]): LayoutElement[] {
  const id = newId();
  const n = elements.length;
  const position = { x: 80 + (n % 4) * 300, y: 80 + Math.floor(n / 4) * 260 };
  return [
    ...elements,
    {
      id,
      name: nextTableName(elements),
      type: 'table',
      position,
      fields: [
        { id: newId(), name: 'id', type: 'integer', primary: true },
        { id: newId(), name: 'name', type: 'string' },
      ],
    },
  ];
}

/** updateTable changes one element. */
export function updateTable(
  elements: readonly LayoutElement[],
  id: string,
  change: (element: LayoutElement) => LayoutElement,
): LayoutElement[] {
  return elements.map((e) => (e.id === id ? change(e) : e));
}

/** deleteTable removes one element. */
export function deleteTable(elements: readonly LayoutElement[], id: string): LayoutElement[] {
  return elements.filter((e) => e.id !== id);
}

/** addField adds a field named field_N of type string. */
export function addField(element: LayoutElement): LayoutElement {
  const taken = new Set(element.fields.map((f) => f.name));
  let n = element.fields.length + 1;
  while (taken.has(`field_${n}`)) n++;
  return { ...element, fields: [...element.fields, { id: newId(), name: `field_${n}`, type: 'string' }] };
}

/** updateField changes one field. */
export function updateField(element: LayoutElement, fieldId: string, change: Partial<LayoutField>): LayoutElement {
  return { ...element, fields: element.fields.map((f) => (f.id === fieldId ? { ...f, ...change } : f)) };
}

/** deleteField removes one field. */
export function deleteField(element: LayoutElement, fieldId: string): LayoutElement {
  return { ...element, fields: element.fields.filter((f) => f.id !== fieldId) };
}

/** withFieldIds gives every field an id (layouts saved by other clients may have none). */
export function withFieldIds(elements: readonly LayoutElement[]): LayoutElement[] {
  return elements.map((e) =>
    e.fields.every((f) => f.id) ? e : { ...e, fields: e.fields.map((f) => (f.id ? f : { ...f, id: newId() })) },
  );
}

/** NUMBER_FIELD_TYPES are the design types that become number columns, the only ones that may reference a table. */
export const NUMBER_FIELD_TYPES: ReadonlySet<string> = new Set([
  'integer',
  'int',
  'bigint',
  'smallint',
  'serial',
  'float',
  'double',
  'decimal',
  'numeric',
  'real',
  'number',
]);

/** canReference tells whether a field may reference a table: a number field that is not the primary key. */
export function canReference(field: LayoutField): boolean {
  return !field.primary && NUMBER_FIELD_TYPES.has(field.type.trim().toLowerCase());
}

/** setFieldReference makes a field reference the element named `table`, or no table (null). */
export function setFieldReference(element: LayoutElement, fieldId: string, table: string | null): LayoutElement {
  return {
    ...element,
    fields: element.fields.map((f) => {
      if (f.id !== fieldId) return f;
      const { references: _old, ...rest } = f;
      return table === null ? rest : { ...rest, references: { table, onDelete: f.references?.onDelete ?? 'restrict' } };
    }),
  };
}

/** ReferenceEdge is one arrow of the canvas: from a field of one element to the element it references. */
export interface ReferenceEdge {
  id: string;
  source: string;
  sourceHandle: string;
  target: string;
}

/** fieldHandle names the point of a field that its arrow starts from. */
export const fieldHandle = (fieldId: string) => `field-${fieldId}`;

/**
 * referenceEdges are the arrows of a layout: one per field that references an element the layout has (matched by
 * name, ignoring case and spaces around it, as tables are made). A reference to no element draws nothing.
 */
export function referenceEdges(elements: readonly LayoutElement[]): ReferenceEdge[] {
  const byName = new Map(elements.map((e) => [e.name.trim().toLowerCase(), e.id]));
  return elements.flatMap((element) =>
    element.fields.flatMap((field) => {
      const target = field.references && byName.get(field.references.table.trim().toLowerCase());
      if (!target || !field.id) return [];
      return [{ id: `ref-${element.id}-${field.id}`, source: element.id, sourceHandle: fieldHandle(field.id), target }];
    }),
  );
}

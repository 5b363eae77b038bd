import { z } from 'zod';
import { PROJECT_LIMITS, projectRoleSchema } from './projects.schemas.js';
import { ON_DELETE_ACTIONS } from './tables.schemas.js';

// A project's schema layout and the messages of the Schema
// Editor's room on /ws. A layout is {elements, version, lastModified}; an element is a table with
// fields. Beyond the spec an element may carry its canvas position, and a field an id, so that two people
// editing one table are merged field by field (schema-layout-merge.ts).

const noNul = (text: string) => !text.includes('\u0000');

/** layoutFieldSchema is one field of a layout element: name, type and an optional primary flag. */
export const layoutFieldSchema = z.object({
  id: z.string({ error: 'Field id must be text' }).min(1, 'Field id cannot be empty').max(100).refine(noNul).optional(),
  name: z
    .string({ error: 'Field name is required' })
    .min(1, 'Field name is required')
    .max(63, 'Field name cannot exceed 63 characters')
    .refine(noNul, 'Field name cannot contain NUL characters'),
  type: z
    .string({ error: 'Field type is required' })
    .min(1, 'Field type is required')
    .max(40, 'Field type cannot exceed 40 characters')
    .refine(noNul, 'Field type cannot contain NUL characters'),
  primary: z.boolean({ error: 'primary must be true or false' }).optional(),
  /** The element (by name) whose rows the field points at: an arrow on the canvas, a reference column once made. */
  references: z
    .object(
      {
        table: z
          .string({ error: 'A reference names a table' })
          .min(1, 'A reference names a table')
          .max(100, 'A reference names a table of at most 100 characters')
          .refine(noNul, 'A reference cannot contain NUL characters'),
        onDelete: z
          .enum(ON_DELETE_ACTIONS, { error: 'On delete must be one of: restrict, cascade, set null' })
          .optional(),
      },
      { error: 'references must be an object: {table, onDelete}' },
    )
    .optional(),
});
/** LayoutField is one field of an element. */
export type LayoutField = z.infer<typeof layoutFieldSchema>;

/** layoutPositionSchema is where an element sits on the canvas. */
export const layoutPositionSchema = z.object({
  x: z.number({ error: 'x must be a number' }).finite().min(-1e6).max(1e6),
  y: z.number({ error: 'y must be a number' }).finite().min(-1e6).max(1e6),
});

/** fieldKey is what identifies a field across edits: its id, else its name. */
export const fieldKey = (field: LayoutField): string => (field.id ? `id:${field.id}` : `name:${field.name}`);

/** layoutElementSchema is one table of a layout. */
export const layoutElementSchema = z
  .object({
    id: z
      .string({ error: 'Element id is required' })
      .min(1, 'Element id is required')
      .max(100, 'Element id cannot exceed 100 characters')
      .refine(noNul, 'Element id cannot contain NUL characters'),
    name: z
      .string({ error: 'Element name is required' })
      .min(1, 'Element name is required')
      .max(100, 'Element name cannot exceed 100 characters')
      .refine(noNul, 'Element name cannot contain NUL characters'),
    type: z.literal('table', { error: 'Element type must be "table"' }),
    fields: z
      .array(layoutFieldSchema, { error: 'fields must be a list' })
      .max(PROJECT_LIMITS.fieldsMax, `A table may have at most ${PROJECT_LIMITS.fieldsMax} fields`),
    position: layoutPositionSchema.optional(),
  })
  .superRefine((element, context) => {
    const seen = new Set<string>();
    element.fields.forEach((field, index) => {
      const key = fieldKey(field);
      if (seen.has(key)) {
        context.addIssue({
          code: 'custom',
          path: ['fields', index, field.id ? 'id' : 'name'],
          message: 'Field ids and names must be unique within a table',
        });
      }
      seen.add(key);
    });
  });
/** LayoutElement is one table of a layout. */
export type LayoutElement = z.infer<typeof layoutElementSchema>;

/** schemaLayoutSchema is a layout as sent by the editor: `version` is the one it was based on. */
export const schemaLayoutSchema = z
  .object({
    elements: z
      .array(layoutElementSchema, { error: 'elements must be a list' })
      .max(PROJECT_LIMITS.elementsMax, `A layout may have at most ${PROJECT_LIMITS.elementsMax} tables`),
    version: z.number({ error: 'version must be a number' }).int('version must be a whole number').min(0).default(0),
    lastModified: z.string().max(64).nullish(),
  })
  .superRefine((layout, context) => {
    const seen = new Set<string>();
    layout.elements.forEach((element, index) => {
      if (seen.has(element.id)) {
        context.addIssue({ code: 'custom', path: ['elements', index, 'id'], message: 'Element ids must be unique' });
      }
      seen.add(element.id);
    });
  });
/** SchemaLayout is a layout: its elements, the version it is (or was based on) and when it last changed. */
export type SchemaLayout = z.infer<typeof schemaLayoutSchema>;

/** saveLayoutSchema is POST /api/projects/:id/schema {layout}. */
export const saveLayoutSchema = z.object({ layout: schemaLayoutSchema });

/** storedLayoutSchema is a layout as the server answers it (GET /api/projects/:id/schema → {layout}). */
export const storedLayoutSchema = z.object({
  elements: z.array(layoutElementSchema),
  version: z.number(),
  lastModified: z.string().nullable(),
});
/** StoredLayout is the project's current layout. */
export type StoredLayout = z.infer<typeof storedLayoutSchema>;

/** layoutResponseSchema is the body of GET and POST /api/projects/:id/schema. */
export const layoutResponseSchema = z.object({ layout: storedLayoutSchema });

/** blankLayout is the layout of a project that has none yet. */
export function blankLayout(): StoredLayout {
  return { elements: [], version: 0, lastModified: null };
}

const projectId = z.string({ error: 'projectId is required' }).min(1, 'projectId is required').max(100);

const TIMESTAMP_MESSAGE = 'timestamp must be a number or an ISO 8601 date-time';
// When an update was made, as its sender tells it: the spec leaves the type open, so milliseconds since the epoch
// and an ISO 8601 date-time are both taken, and passed on as they came.
const updateTimestampSchema = z.union(
  [
    z.number({ error: TIMESTAMP_MESSAGE }).finite(TIMESTAMP_MESSAGE),
    z.iso.datetime({ offset: true, error: TIMESTAMP_MESSAGE }),
  ],
  { error: TIMESTAMP_MESSAGE },
);

/** UpdateTimestamp is when an editor says it made an update: milliseconds, or an ISO 8601 date-time. */
export type UpdateTimestamp = number | string;

/** clientMessageSchema is a frame the editor sends on /ws. */
export const clientMessageSchema = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('join_schema_room'), projectId, userId: z.unknown().optional() }),
    z.object({ type: z.literal('leave_schema_room'), projectId }),
    z.object({
      type: z.literal('schema_layout_update'),
      projectId,
      userId: z.unknown().optional(),
      layout: schemaLayoutSchema,
      save: z.boolean({ error: 'save must be true or false' }).optional(),
      timestamp: updateTimestampSchema.optional(),
    }),
    z.object({
      type: z.literal('schema_selection'),
      projectId,
      elementIds: z.array(z.string().max(100)).max(50),
    }),
  ],
  { error: 'Unknown message type' },
);
/** ClientMessage is one frame from the editor. */
export type ClientMessage = z.infer<typeof clientMessageSchema>;

/** presenceUserSchema is one person in a room. */
export const presenceUserSchema = z.object({
  accountId: z.string(),
  name: z.string(),
  initials: z.string(),
  color: z.string(),
  role: projectRoleSchema,
  selection: z.array(z.string()),
});
/** PresenceUser is one person in a room, with what they have selected. */
export type PresenceUser = z.infer<typeof presenceUserSchema>;

/** serverMessageSchema is a frame the server sends on /ws. */
export const serverMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('schema_layout_init'),
    projectId: z.string(),
    layout: storedLayoutSchema,
    role: projectRoleSchema,
    self: z.string(),
  }),
  z.object({
    type: z.literal('schema_layout_update'),
    projectId: z.string(),
    layout: storedLayoutSchema,
    userId: z.string(),
    timestamp: z.union([z.number(), z.string()]).nullable(),
    /** Every update merged into this version (several when they arrived together), beyond the spec. */
    updates: z
      .array(z.object({ userId: z.string(), timestamp: z.union([z.number(), z.string()]).nullable() }))
      .optional(),
  }),
  z.object({
    type: z.literal('schema_layout_saved'),
    projectId: z.string(),
    version: z.number(),
    layout: storedLayoutSchema,
    timestamp: z.number().nullable(),
    updates: z.array(z.object({ userId: z.string(), timestamp: z.number().nullable() })).optional(),
  }),
  z.object({ type: z.literal('schema_presence'), projectId: z.string(), users: z.array(presenceUserSchema) }),
  z.object({ type: z.literal('error'), code: z.string(), message: z.string(), projectId: z.string().optional() }),
]);
/** ServerMessage is one frame from the server. */
export type ServerMessage = z.infer<typeof serverMessageSchema>;

/** PRESENCE_COLORS are the colours people get in a room, picked from their account id. */
export const PRESENCE_COLORS = ['#2563eb', '#db2777', '#16a34a', '#ea580c', '#7c3aed', '#0891b2', '#ca8a04', '#dc2626'];

/** presenceColorOf picks a person's colour from their account id (the same on every node and screen). */
export function presenceColorOf(accountId: string): string {
  let hash = 0;
  for (let i = 0; i < accountId.length; i++) hash = (hash * 31 + accountId.charCodeAt(i)) >>> 0;
  return PRESENCE_COLORS[hash % PRESENCE_COLORS.length] ?? '#2563eb';
}

/** initialsOf is the first two letters of a name, upper-cased (as the sidebar shows the signed-in user). */
export function initialsOf(name: string): string {
  return (name.replace(/[^\p{L}\p{N}]/gu, '').slice(0, 2) || '?').toUpperCase();
}

import { z } from 'zod';

// Projects, their members and roles, and the schema layouts of the Schema Editor. The server validates requests with these and the console reads answers with them.

/** PROJECT_ROLES are a member's possible roles, from most to least powerful. */
export const PROJECT_ROLES = ['OWNER', 'ADMIN', 'DEVELOPER', 'EDITOR', 'VIEWER'] as const;
/** projectRoleSchema is one of PROJECT_ROLES. */
export const projectRoleSchema = z.enum(PROJECT_ROLES, {
  error: 'Role must be one of: OWNER, ADMIN, DEVELOPER, EDITOR, VIEWER',
});
/** ProjectRole is one of PROJECT_ROLES. */
export type ProjectRole = z.infer<typeof projectRoleSchema>;

/**
 * PROJECT_PERMISSIONS is the role matrix: which roles may do what in a project and on its linked
 * tables. The server enforces it; the console hides what a role cannot do.
 */
export const PROJECT_PERMISSIONS = {
  /** Delete the project or transfer its ownership. */
  'project.delete': ['OWNER'],
  /** Edit the project's name, description, icon and colour. */
  'project.edit': ['OWNER', 'ADMIN'],
  /** Invite, re-role and remove members (an ADMIN only up to ADMIN). */
  'members.manage': ['OWNER', 'ADMIN'],
  /** Schema changes of linked tables, layouts, table links, SQL execution, restores. */
  'schema.write': ['OWNER', 'ADMIN', 'DEVELOPER'],
  /** Record writes, reverting a record change, creating checkpoints. */
  'records.write': ['OWNER', 'ADMIN', 'DEVELOPER', 'EDITOR'],
  /** Reading rows, schemas, history and layouts. */
  read: ['OWNER', 'ADMIN', 'DEVELOPER', 'EDITOR', 'VIEWER'],
} as const satisfies Record<string, readonly ProjectRole[]>;

/** ProjectAction is one row of PROJECT_PERMISSIONS. */
export type ProjectAction = keyof typeof PROJECT_PERMISSIONS;

/** roleCan tells whether a project role may do an action (PROJECT_PERMISSIONS). */
export function roleCan(role: ProjectRole, action: ProjectAction): boolean {
  return (PROJECT_PERMISSIONS[action] as readonly ProjectRole[]).includes(role);
}

/** roleRank orders roles: 0 for OWNER up to 4 for VIEWER. */
export function roleRank(role: ProjectRole): number {
  return PROJECT_ROLES.indexOf(role);
}

/** PROJECT_LIMITS are the sizes of projects and layouts; a larger layout is refused with 413. */
export const PROJECT_LIMITS = {
  nameMin: 3,
  nameMax: 100,
  descriptionMax: 500,
  /** A layout's JSON text, at most. */
  layoutMaxBytes: 512 * 1024,
  elementsMax: 500,
  fieldsMax: 200,
} as const;

/** PROJECT_NAME_MESSAGE is the message for a project name that is too short. */
export const PROJECT_NAME_MESSAGE = 'Project name must be at least 3 characters';

const projectName = z
  .string({ error: 'Project name is required' })
  .trim()
  .min(PROJECT_LIMITS.nameMin, PROJECT_NAME_MESSAGE)
  .max(PROJECT_LIMITS.nameMax, `Project name cannot exceed ${PROJECT_LIMITS.nameMax} characters`)
  .refine((name) => !name.includes('\u0000'), 'Project name cannot contain NUL characters');

const projectDescription = z
  .string({ error: 'Description must be text' })
  .max(PROJECT_LIMITS.descriptionMax, `Description cannot exceed ${PROJECT_LIMITS.descriptionMax} characters`)
  .refine((text) => !text.includes('\u0000'), 'Description cannot contain NUL characters');

/** createProjectSchema is POST /api/projects {name, description?}. */
export const createProjectSchema = z.object({
  name: projectName,
  description: projectDescription.nullish(),
});
/** CreateProjectInput is a new project. */
export type CreateProjectInput = z.infer<typeof createProjectSchema>;

const shortText = (what: string, max: number) =>
  z
    .string({ error: `${what} must be text` })
    .max(max, `${what} cannot exceed ${max} characters`)
    .refine((text) => !text.includes('\u0000'), `${what} cannot contain NUL characters`);

/** updateProjectSchema is PATCH /api/projects/:id: any of name, description, icon, color, isActive. */
export const updateProjectSchema = z
  .object({
    name: projectName.optional(),
    description: projectDescription.nullable().optional(),
    icon: shortText('Icon', 64).nullable().optional(),
    color: z
      .string({ error: 'Color must be text' })
      .regex(/^#[0-9a-fA-F]{6}$/, 'Color must be a hex colour such as #3b82f6')
      .nullable()
      .optional(),
    isActive: z.boolean({ error: 'isActive must be true or false' }).optional(),
  })
  .strict();
/** UpdateProjectInput is a change of a project's details. */
export type UpdateProjectInput = z.infer<typeof updateProjectSchema>;

/** projectSchema is a project as the API answers it, with the caller's role in it. */
export const projectSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  ownerId: z.string(),
  icon: z.string().nullable(),
  color: z.string().nullable(),
  isActive: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  role: projectRoleSchema,
});
/** Project is one project. */
export type Project = z.infer<typeof projectSchema>;

/** projectListSchema is GET /api/projects. */
export const projectListSchema = z.array(projectSchema);

/** addMemberSchema is POST /api/projects/:id/members: an existing account by email or username, and a role. */
export const addMemberSchema = z
  .object({
    email: z.string({ error: 'Email must be text' }).trim().max(254, 'Email cannot exceed 254 characters').optional(),
    username: z
      .string({ error: 'Username must be text' })
      .trim()
      .max(50, 'Username cannot exceed 50 characters')
      .optional(),
    role: projectRoleSchema.default('VIEWER'),
  })
  .refine((input) => Boolean(input.email || input.username), {
    message: 'Give the email or the username of the account to invite',
    path: ['email'],
  });
/** AddMemberInput is an invitation. */
export type AddMemberInput = z.input<typeof addMemberSchema>;

/** updateMemberSchema is PATCH /api/projects/:id/members/:accountId {role}. */
export const updateMemberSchema = z.object({ role: projectRoleSchema });

/** projectMemberSchema is one member as the API answers it. */
export const projectMemberSchema = z.object({
  accountId: z.string(),
  username: z.string().nullable(),
  email: z.string(),
  role: projectRoleSchema,
  joinedAt: z.string(),
  invitedBy: z.string().nullable(),
});
/** ProjectMember is one member of a project. */
export type ProjectMember = z.infer<typeof projectMemberSchema>;

/** projectMemberListSchema is GET /api/projects/:id/members. */
export const projectMemberListSchema = z.array(projectMemberSchema);

/** projectTableSchema is a table linked to a project, with its owner. */
export const projectTableSchema = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  ownerId: z.string(),
  ownerName: z.string().nullable(),
  schema: z.record(z.string(), z.object({ type: z.string(), required: z.boolean(), unique: z.boolean() })),
  createdAt: z.string(),
  linkedAt: z.string(),
});
/** ProjectTable is a table linked to a project. */
export type ProjectTable = z.infer<typeof projectTableSchema>;

/** sharedTableSchema is a table another account shares with the caller through a project (GET /api/shared-tables). */
export const sharedTableSchema = projectTableSchema.extend({
  projectId: z.string(),
  projectName: z.string(),
  role: projectRoleSchema,
});
/** SharedTable is a table shared with the caller, with its project's name and the caller's role there. */
export type SharedTable = z.infer<typeof sharedTableSchema>;

/**
 * importTablesSchema is the optional body of POST /api/projects/:id/schema/import: the caller's own tables to link
 * to the project and draw, beside the linked tables the canvas does not show yet (always drawn).
 */
export const importTablesSchema = z
  .object(
    {
      tableIds: z
        .array(z.number({ error: 'Each table id must be a number' }).int().positive().max(Number.MAX_SAFE_INTEGER), {
          error: 'tableIds must be a list of table ids',
        })
        .max(200, { error: 'Import at most 200 tables at a time' })
        .optional(),
    },
    { error: 'The import must be an object: {tableIds}' },
  )
  .strict();

/** importCandidatesSchema is GET /api/projects/:id/schema/import: what an import could draw. */
export const importCandidatesSchema = z.object({
  /** Tables linked to the project that the canvas does not show yet (an import always draws them). */
  linked: z.array(z.object({ id: z.number(), name: z.string() })),
  /** The caller's own tables not linked to the project (an import links and draws those it names). */
  own: z.array(z.object({ id: z.number(), name: z.string() })),
});
export type ImportCandidates = z.infer<typeof importCandidatesSchema>;

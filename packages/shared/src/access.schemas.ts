import { z } from 'zod';

// Table access rules (issue "Apps with their own users"): per table and per operation, who among an app's
// callers may act on its rows. The owning account (its console session, its API keys) and the app service key
// are never limited by them; they are about the app's end users and signed-out callers with the app anon key.

/** ACCESS_OPERATIONS are the operations a rule is set for. */
export const ACCESS_OPERATIONS = ['select', 'insert', 'update', 'delete'] as const;
/** AccessOperation is one of ACCESS_OPERATIONS. */
export type AccessOperation = (typeof ACCESS_OPERATIONS)[number];

/** ACCESS_RULES are the rules, from the most closed to the most open, and `own` (rows of the caller). */
export const ACCESS_RULES = ['nobody', 'authenticated', 'public', 'own'] as const;

/** accessRuleSchema is one rule. */
export const accessRuleSchema = z.enum(ACCESS_RULES, {
  error: 'A rule must be one of: nobody, authenticated, public, own',
});
/** AccessRule is one of ACCESS_RULES. */
export type AccessRule = z.infer<typeof accessRuleSchema>;

/** TableAccess is a table's rules; `ownerColumn` names the text column that `own` compares with the user's id. */
export interface TableAccess {
  select: AccessRule;
  insert: AccessRule;
  update: AccessRule;
  delete: AccessRule;
  ownerColumn?: string | null;
}

/** DEFAULT_TABLE_ACCESS is a new table's rules: nobody but the owner and the app service key. */
export const DEFAULT_TABLE_ACCESS: Readonly<TableAccess> = Object.freeze({
  select: 'nobody',
  insert: 'nobody',
  update: 'nobody',
  delete: 'nobody',
  ownerColumn: null,
});

/**
 * tableAccessSchema is the `access` of a table as a client sends it: each operation's rule (an omitted one is
 * `nobody`) and, when any rule is `own`, the owner column. Whether that column exists and is text is checked
 * against the table's schema by the server (checkAccessColumns).
 */
export const tableAccessSchema = z
  .object(
    {
      select: accessRuleSchema.default('nobody'),
      insert: accessRuleSchema.default('nobody'),
      update: accessRuleSchema.default('nobody'),
      delete: accessRuleSchema.default('nobody'),
      ownerColumn: z.string({ error: 'The owner column must be a column name' }).trim().min(1).nullish(),
    },
    { error: 'Access must be an object of rules: {select, insert, update, delete, ownerColumn}' },
  )
  .strict()
  .superRefine((access, ctx) => {
    const usesOwn = ACCESS_OPERATIONS.some((op) => access[op] === 'own');
    if (usesOwn && !access.ownerColumn) {
      ctx.addIssue({
        code: 'custom',
        message: 'Rules of "own rows" need an owner column: the text column that holds each row\'s user id',
        path: ['ownerColumn'],
      });
    }
  })
  .transform(
    (access): TableAccess => ({
      select: access.select,
      insert: access.insert,
      update: access.update,
      delete: access.delete,
      ownerColumn: ACCESS_OPERATIONS.some((op) => access[op] === 'own') ? (access.ownerColumn ?? null) : null,
    }),
  );

/** tableAccessViewSchema is a table's rules as the APIs return them (every key present). */
export const tableAccessViewSchema = z.object({
  select: accessRuleSchema,
  insert: accessRuleSchema,
  update: accessRuleSchema,
  delete: accessRuleSchema,
  ownerColumn: z.string().nullish(),
});

/** usesOwnRows tells whether any operation's rule is `own`. */
export function usesOwnRows(access: TableAccess): boolean {
  return ACCESS_OPERATIONS.some((op) => access[op] === 'own');
}

/** sameAccess tells whether two sets of rules are the same. */
export function sameAccess(a: TableAccess, b: TableAccess): boolean {
  return ACCESS_OPERATIONS.every((op) => a[op] === b[op]) && (a.ownerColumn ?? null) === (b.ownerColumn ?? null);
}

/** normalizeAccess reads stored or saved rules; anything unreadable is the default (nobody). */
export function normalizeAccess(value: unknown): TableAccess {
  const parsed = tableAccessSchema.safeParse(value ?? {});
  return parsed.success ? parsed.data : { ...DEFAULT_TABLE_ACCESS };
}

const WHAT: Record<AccessOperation, string> = {
  select: 'read rows',
  insert: 'add rows',
  update: 'change rows',
  delete: 'delete rows',
};

/** describeRule says one operation's rule in plain words ("Anyone signed in to your app can read rows"). */
export function describeRule(operation: AccessOperation, rule: AccessRule): string {
  const what = WHAT[operation];
  switch (rule) {
    case 'nobody':
      return `Only you (and your server, with the app service key) can ${what}`;
    case 'authenticated':
      return `Anyone signed in to your app can ${what}`;
    case 'public':
      return `Anyone, even signed out, can ${what}`;
    case 'own':
      return operation === 'insert'
        ? 'Each signed-in user can add rows, which become their own'
        : `Each signed-in user can ${what.replace(' rows', '')} only their own rows`;
  }
}

/**
 * describeAccess sums the rules up in one or two sentences, e.g. "Anyone signed in to your app can read; each
 * user edits only their own rows".
 */
export function describeAccess(access: TableAccess): string {
  const read = access.select;
  const writes = [access.insert, access.update, access.delete];
  const readText =
    read === 'nobody'
      ? 'Only you can read'
      : read === 'own'
        ? 'Each user reads only their own rows'
        : read === 'public'
          ? 'Anyone, even signed out, can read'
          : 'Anyone signed in to your app can read';
  const sameWrite = writes.every((w) => w === writes[0]);
  let writeText: string;
  if (sameWrite && writes[0] === 'nobody') writeText = 'only you can add, change or delete rows';
  else if (sameWrite && writes[0] === 'own') writeText = 'each user edits only their own rows';
  else if (sameWrite && writes[0] === 'public') writeText = 'anyone, even signed out, can add, change or delete rows';
  else if (sameWrite) writeText = 'anyone signed in can add, change or delete rows';
  else {
    const part = (verb: string, rule: AccessRule) =>
      rule === 'nobody'
        ? `only you ${verb}`
        : rule === 'own'
          ? `each user ${verb} only their own rows`
          : rule === 'public'
            ? `anyone ${verb}`
            : `anyone signed in ${verb}`;
    writeText = [part('adds', access.insert), part('changes', access.update), part('deletes', access.delete)].join(
      ', ',
    );
  }
  return `${readText}; ${writeText}`;
}

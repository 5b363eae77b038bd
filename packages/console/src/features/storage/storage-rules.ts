import { ACCESS_RULES, type AccessRule } from '@basalt/shared';
import type { AccessRuleWords } from '@/components/access-rules';

// A bucket's access rules as the server keeps them (features/storage/storage-rules.ts on the server): per
// operation, who of the app's callers may do it — the same four rules as tables'. Here they are said in plain
// words for the Storage page.

/** STORAGE_OPERATIONS are what a bucket's rules are about. */
export const STORAGE_OPERATIONS = ['read', 'insert', 'update', 'delete'] as const;
/** StorageOperation is one of STORAGE_OPERATIONS. */
export type StorageOperation = (typeof STORAGE_OPERATIONS)[number];
/** BucketAccess is a bucket's rules. */
export type BucketAccess = Record<StorageOperation, AccessRule>;

/** DEFAULT_BUCKET_ACCESS lets no app caller in (a new bucket's rules). */
export const DEFAULT_BUCKET_ACCESS: BucketAccess = {
  read: 'nobody',
  insert: 'nobody',
  update: 'nobody',
  delete: 'nobody',
};

/** bucketAccessOf reads the `access` of a bucket as the server answers it; anything unknown is `nobody`. */
export function bucketAccessOf(raw: unknown): BucketAccess {
  const access = { ...DEFAULT_BUCKET_ACCESS };
  if (typeof raw !== 'object' || raw === null) return access;
  for (const op of STORAGE_OPERATIONS) {
    const rule = (raw as Record<string, unknown>)[op];
    if ((ACCESS_RULES as readonly unknown[]).includes(rule)) access[op] = rule as AccessRule;
  }
  return access;
}

/** sameBucketAccess tells whether two sets of rules are the same. */
export const sameBucketAccess = (a: BucketAccess, b: BucketAccess) => STORAGE_OPERATIONS.every((op) => a[op] === b[op]);

const VERB: Record<StorageOperation, string> = { read: 'read', insert: 'upload', update: 'replace', delete: 'delete' };

/** describeBucketRule says one operation's rule in plain words ("Signed-in users can upload to their own folder"). */
export function describeBucketRule(operation: StorageOperation, rule: AccessRule): string {
  const verb = VERB[operation];
  switch (rule) {
    case 'nobody':
      return `Only you (and your server, with the app service key) can ${verb} files`;
    case 'authenticated':
      return `Signed-in users can ${verb} files`;
    case 'public':
      return `Anyone can ${verb} files, even signed out`;
    case 'own':
      return operation === 'insert'
        ? 'Signed-in users can upload to their own folder'
        : `Signed-in users can ${verb} files in their own folder`;
  }
}

/** describeBucketAccess sums a bucket's rules up in one sentence ("Anyone can read; only you can upload, …"). */
export function describeBucketAccess(access: BucketAccess): string {
  if (STORAGE_OPERATIONS.every((op) => access[op] === 'nobody')) {
    return 'Only you (and your server, with the app service key) can read, upload, replace or delete files';
  }
  if (STORAGE_OPERATIONS.every((op) => access[op] === 'public')) {
    return 'Anyone, even signed out, can read, upload, replace or delete files';
  }
  const who: Record<AccessRule, string> = {
    nobody: 'only you',
    authenticated: 'signed-in users',
    public: 'anyone',
    own: 'signed-in users (in their own folder)',
  };
  // Operations with one rule are said together: "anyone can read; signed-in users (in their own folder) can …".
  const groups = new Map<AccessRule, string[]>();
  for (const op of STORAGE_OPERATIONS) groups.set(access[op], [...(groups.get(access[op]) ?? []), VERB[op]]);
  const parts = [...groups].map(([rule, verbs]) => `${who[rule]} can ${joinWords(verbs)}`);
  const sentence = parts.join('; ');
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

const joinWords = (words: string[]) =>
  words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;

/** BUCKET_RULE_WORDS are a bucket's rules in words, for the rules editor (components/access-rules.tsx). */
export const BUCKET_RULE_WORDS: AccessRuleWords<StorageOperation, BucketAccess> = {
  operations: STORAGE_OPERATIONS,
  operationLabels: { read: 'Read files', insert: 'Upload files', update: 'Replace files', delete: 'Delete files' },
  ownLabel: 'Own folder only',
  describe: describeBucketRule,
  summarize: describeBucketAccess,
};

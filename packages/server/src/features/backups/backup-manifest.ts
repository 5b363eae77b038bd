import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { BASALT_VERSION } from '@basalt/shared';
import * as tar from 'tar';
import { z } from 'zod';
import { ArchiveError, type ArchivePartFile, MANIFEST_FILE } from '../../lib/archive/archive.js';

// An instance backup's manifest.json (docs/backups.md): who wrote it (Basalt's version, the engine and its version),
// the database's migration level, when, and each part with the SHA-256 of each of its files. A restore reads it
// before anything else and trusts nothing of the archive that it does not list.

const partFileSchema = z.object({
  path: z.string().min(1).max(300),
  bytes: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

const partSchema = z.object({
  /** The part's folder: database, or what a feature contributes (files). */
  name: z.string().regex(/^[a-z][a-z0-9-]{0,40}$/),
  /** How the part holds its data (the database: sqlite-file, pg-dump or logical). */
  format: z.string().max(40),
  files: z.array(partFileSchema).max(1_000_000),
});

/** backupManifestSchema checks an instance backup's manifest. */
export const backupManifestSchema = z.object({
  format: z.literal('basalt-backup'),
  formatVersion: z.literal(1),
  kind: z.literal('instance'),
  basaltVersion: z.string().max(50),
  engine: z.enum(['sqlite', 'postgres']),
  engineVersion: z.string().max(300).nullable(),
  /** The newest migration the database had run, and all of them. */
  migrationLevel: z.string().max(100),
  migrations: z.array(z.string().max(100)).max(10_000),
  createdAt: z.string().max(40),
  name: z.string().max(200),
  description: z.string().max(1000).nullable(),
  includeFiles: z.boolean(),
  parts: z.array(partSchema).min(1).max(100),
});

/** BackupManifest is an instance backup's manifest. */
export type BackupManifest = z.infer<typeof backupManifestSchema>;

/** ManifestPart is one part of a manifest. */
export type ManifestPart = BackupManifest['parts'][number];

/** newestMigration is the level a list of migrations names: the greatest name. */
export function newestMigration(migrations: string[]): string {
  return [...migrations].sort().at(-1) ?? 'none';
}

/** manifestOf builds a manifest. */
export function manifestOf(fields: Omit<BackupManifest, 'format' | 'formatVersion' | 'kind' | 'basaltVersion'>) {
  const manifest: BackupManifest = {
    format: 'basalt-backup',
    formatVersion: 1,
    kind: 'instance',
    basaltVersion: BASALT_VERSION,
    ...fields,
  };
  return manifest;
}

/** prefixed lists a part's files under its folder, as the archive holds them. */
export function prefixed(part: string, files: ArchivePartFile[]): ArchivePartFile[] {
  return files.map((file) => ({ ...file, path: `${part}/${file.path}` }));
}

/** readManifest reads and checks the manifest of an unpacked archive. */
export async function readManifest(dir: string): Promise<BackupManifest> {
  let text: string;
  try {
    text = await fs.readFile(path.join(dir, MANIFEST_FILE), 'utf8');
  } catch {
    throw new ArchiveError('The archive is not a Basalt backup: it has no manifest.json');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ArchiveError('The archive is not a Basalt backup: its manifest.json is not JSON');
  }
  if ((parsed as { kind?: unknown })?.kind === 'account') {
    throw new ArchiveError('This archive is an account export: import it in Settings → Account, not as a backup');
  }
  const result = backupManifestSchema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new ArchiveError(
      `The archive is not a Basalt backup: its manifest is not valid (${issue?.path.join('.') || 'manifest'}: ${issue?.message ?? ''})`,
    );
  }
  for (const part of result.data.parts) {
    if (part.files.some((file) => !file.path.startsWith(`${part.name}/`))) {
      throw new ArchiveError(`The archive is not a Basalt backup: part ${part.name} lists files outside its folder`);
    }
  }
  return result.data;
}

/** readArchiveManifest reads only the manifest of an archive file (into a folder removed afterwards). */
export async function readArchiveManifest(file: string): Promise<BackupManifest> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-manifest-'));
  try {
    await tar.x({ file, cwd: dir, strict: true, filter: (entry) => entry === MANIFEST_FILE });
    return await readManifest(dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/**
 * levelRefusal says why this server cannot restore a database at the manifest's migration level (it has
 * migrations this server does not know: a newer Basalt wrote it), or null.
 */
export function levelRefusal(manifest: BackupManifest, known: string[], current: string[]): string | null {
  const unknown = manifest.migrations.filter((name) => !known.includes(name));
  if (unknown.length === 0) return null;
  return `This backup's database is newer than this server: it was made by Basalt ${manifest.basaltVersion} at migration level ${manifest.migrationLevel}, and this server (Basalt ${BASALT_VERSION}) is at ${newestMigration(current)} and does not know ${unknown.slice(0, 3).join(', ')}. Upgrade this server first.`;
}

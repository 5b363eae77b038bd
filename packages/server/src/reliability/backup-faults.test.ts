import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DialectName } from '../db/dialect/dialect.js';
import { freePort, type ServerProcess, startServerProcess } from '../testing/server-process.js';
import { createTestDatabase, testDialects } from '../testing/test-server.js';

// Backups and restores when things go wrong: the process killed (kill -9) in the middle of a backup and of a
// restore, and a disk that fills up during a backup. Afterwards nothing is lost: the data is the old state or
// the restored one, never a mix; nothing is left IN_PROGRESS; no archive is listed COMPLETED without its file.

// biome-ignore lint/suspicious/noExplicitAny: the tests read JSON bodies.
type Json = any;

async function call(url: string, method: string, headers: Record<string, string>, body?: unknown): Promise<Json> {
  const res = await fetch(url, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function signUp(url: string, email: string): Promise<Record<string, string>> {
  const { body: config } = await call(`${url}/api/config`, 'GET', {});
  const res = await call(
    `${url}/auth/v1/signup`,
    'POST',
    { apikey: config.anonKey },
    { email, password: 'Fault-Passw0rd!' },
  );
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status}`);
  return { apikey: config.anonKey, authorization: `Bearer ${res.body.access_token}` };
}

async function signIn(url: string, email: string): Promise<Record<string, string>> {
  const { body: config } = await call(`${url}/api/config`, 'GET', {});
  const res = await call(
    `${url}/auth/v1/token?grant_type=password`,
    'POST',
    { apikey: config.anonKey },
    {
      email,
      password: 'Fault-Passw0rd!',
    },
  );
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { apikey: config.anonKey, authorization: `Bearer ${res.body.access_token}` };
}

async function addRows(url: string, headers: Record<string, string>, from: number, count: number) {
  const rows = Array.from({ length: count }, (_, i) => ({ title: `row ${from + i}` }));
  const res = await call(`${url}/rest/v1/notes`, 'POST', headers, rows);
  if (res.status !== 201) throw new Error(`insert failed: ${res.status} ${JSON.stringify(res.body)}`);
}

async function titles(url: string, headers: Record<string, string>): Promise<string[]> {
  const res = await call(`${url}/rest/v1/notes?select=title&order=id`, 'GET', headers);
  return (res.body as Array<{ title: string }>).map((row) => row.title);
}

async function waitDone(url: string, headers: Record<string, string>, id: string): Promise<Json> {
  for (let i = 0; i < 600; i++) {
    const res = await call(`${url}/api/backups/${id}`, 'GET', headers);
    if (res.body?.status !== 'IN_PROGRESS' && res.body?.restore?.status !== 'IN_PROGRESS') return res.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('not finished');
}

describe.each(testDialects)('backups and restores under faults on %s', (dialect: DialectName) => {
  let dataDir: string;
  let database: { url: string; drop(): Promise<void> } | null = null;
  let processes: ServerProcess[] = [];

  const start = async (env: Record<string, string> = {}) => {
    const started = await startServerProcess({
      PORT: String(await freePort()),
      BASALT_DATA_DIR: dataDir,
      DATABASE_URL: database?.url ?? '',
      // A restarted node comes back on another port: the instance's stored issuer keeps its tokens valid.
      SITE_URL: '',
      LOG_LEVEL: 'warn',
      ...env,
    });
    processes.push(started);
    return started;
  };

  const setUp = async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-faults-'));
    database = dialect === 'postgres' ? await createTestDatabase() : null;
    const node = await start();
    const headers = await signUp(node.url, 'admin@example.com');
    const table = await call(`${node.url}/api/tables`, 'POST', headers, {
      name: 'notes',
      schema: { title: { type: 'text' } },
    });
    expect(table.status).toBe(201);
    // The owner reads and writes through /rest/v1 with the instance's anon key and their own token.
    await addRows(node.url, headers, 0, 2000);
    return { node, headers };
  };

  afterEach(async () => {
    for (const p of processes) await p.kill();
    processes = [];
    await database?.drop();
    database = null;
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('kill -9 during a backup: after restart it is FAILED (or COMPLETED with its archive), the data whole', async () => {
    let { node, headers } = await setUp();
    const before = await titles(node.url, headers);
    for (const delay of [0, 30, 120]) {
      const started = await call(`${node.url}/api/backups`, 'POST', headers, { name: `killed after ${delay} ms` });
      expect(started.status).toBe(202);
      await new Promise((resolve) => setTimeout(resolve, delay));
      await node.kill();
      node = await start();
      headers = await signIn(node.url, 'admin@example.com');
      const backup = await waitDone(node.url, headers, started.body.id);
      expect(['COMPLETED', 'FAILED']).toContain(backup.status);
      const dir = path.join(dataDir, 'backups');
      // A backup killed before it made the backups folder leaves no folder at all.
      const files = await fs.readdir(dir).catch((error) => (error.code === 'ENOENT' ? [] : Promise.reject(error)));
      if (backup.status === 'FAILED') expect(backup.error).toMatch(/Interrupted/);
      else expect(files).toContain(backup.filePath);
      expect(files.filter((f) => f.startsWith('.') || f.endsWith('.partial'))).toEqual([]);
      expect(await titles(node.url, headers)).toEqual(before);
    }
  }, 180_000);

  it('kill -9 during a restore: after restart the data is the old state or the restored one, never a mix', async () => {
    let { node, headers } = await setUp();
    const backed = await call(`${node.url}/api/backups`, 'POST', headers, { name: 'two thousand rows' });
    const backup = await waitDone(node.url, headers, backed.body.id);
    expect(backup.status).toBe('COMPLETED');
    const restoredState = await titles(node.url, headers);
    for (const delay of [100, 700, 1500]) {
      await addRows(node.url, headers, 10_000 + delay, 500);
      const current = await titles(node.url, headers);
      const started = await call(`${node.url}/api/backups/${backup.id}/restore`, 'POST', headers);
      expect(started.status).toBe(202);
      await new Promise((resolve) => setTimeout(resolve, delay));
      await node.kill();
      node = await start();
      headers = await signIn(node.url, 'admin@example.com');
      const now = await titles(node.url, headers);
      expect([current, restoredState]).toContainEqual(now);
      const row = await waitDone(node.url, headers, backup.id);
      expect(['COMPLETED', 'FAILED']).toContain(row.restore.status);
      // Writes are taken again at once: the dead restorer's lease was given up.
      await addRows(node.url, headers, 90_000 + delay, 1);
    }
  }, 240_000);

  it('a full disk during a backup: FAILED with the reason, no file left, the next backup works', async (context) => {
    const mount = path.join(os.tmpdir(), `basalt-full-${process.pid}-${Date.now()}`);
    await fs.mkdir(mount, { recursive: true });
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=96k', 'tmpfs', mount], { stdio: 'ignore' });
    } catch {
      console.log('skipped: a small tmpfs cannot be mounted here (not root), so no disk can be filled');
      await fs.rm(mount, { recursive: true, force: true });
      context.skip();
      return;
    }
    try {
      const { node: first } = await setUp();
      await first.stop();
      processes = [];
      const node = await start({ BACKUP_DIR: mount, BACKUP_FORMAT: 'logical' });
      const headers = await signIn(node.url, 'admin@example.com');
      const started = await call(`${node.url}/api/backups`, 'POST', headers, {});
      const failed = await waitDone(node.url, headers, started.body.id);
      expect(failed).toMatchObject({ status: 'FAILED', filePath: null });
      expect(failed.error).toMatch(/disk is full/);
      expect(await fs.readdir(mount)).toEqual([]);
      const list = await call(`${node.url}/api/backups`, 'GET', headers);
      expect(list.body.backups.filter((b: Json) => b.status === 'COMPLETED')).toEqual([]);
    } finally {
      for (const p of processes) await p.kill();
      processes = [];
      execFileSync('umount', [mount], { stdio: 'ignore' });
      await fs.rm(mount, { recursive: true, force: true });
    }
  }, 120_000);
});

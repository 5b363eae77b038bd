import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DialectName } from '../db/dialect/dialect.js';
import { freePort, type ServerProcess, startServerProcess } from '../testing/server-process.js';
import { createTestDatabase, testDialects } from '../testing/test-server.js';

// kill -9 under write load: Basalt runs as its own process, clients create records as fast as it takes them,
// and the process is killed without warning in the middle. Started again on the same data, it must hold every
// write it acknowledged, each with its RECORD_CREATE history entry, and no record without one (a row and its
// history commit together). That is DESIGN.md's promise for SQLite (WAL, synchronous=NORMAL: no committed
// write is lost when the process dies) and PostgreSQL's own.

const LOAD_MS = 2_000;
const WRITERS = 12;

interface Acknowledged {
  id: number;
  title: string;
}

async function json(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** signUp makes an account on the process and returns its bearer headers. */
async function signUp(url: string): Promise<Record<string, string>> {
  const { anonKey } = (await json(await fetch(`${url}/api/config`))) as { anonKey: string };
  const res = await fetch(`${url}/auth/v1/signup`, {
    method: 'POST',
    headers: { apikey: anonKey, authorization: `Bearer ${anonKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'load@example.com', password: 'Load-Passw0rd!' }),
  });
  const session = (await json(res)) as { access_token: string };
  return { authorization: `Bearer ${session.access_token}`, 'content-type': 'application/json' };
}

/** writeUntilStopped creates records from several writers and keeps those the server acknowledged. */
async function writeUntilStopped(
  url: string,
  headers: Record<string, string>,
  stopped: () => boolean,
): Promise<{ acknowledged: Acknowledged[]; refused: string[]; lost: number }> {
  const acknowledged: Acknowledged[] = [];
  const refused: string[] = [];
  let lost = 0;
  const writer = async (w: number) => {
    for (let i = 0; !stopped(); i++) {
      const title = `w${w}-${i}`;
      try {
        const res = await fetch(`${url}/api/table/load`, { method: 'POST', headers, body: JSON.stringify({ title }) });
        if (res.status === 201) acknowledged.push({ id: ((await res.json()) as { id: number }).id, title });
        else refused.push(`${res.status} ${await res.text()}`);
      } catch {
        // The connection died with the process: this write was never acknowledged.
        lost++;
      }
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
  return { acknowledged, refused, lost };
}

async function allRows(url: string, headers: Record<string, string>): Promise<Map<number, string>> {
  const rows = new Map<number, string>();
  for (let offset = 0; ; offset += 1000) {
    const page = (await json(await fetch(`${url}/api/table/load?limit=1000&offset=${offset}`, { headers }))) as Array<{
      id: number;
      title: string;
    }>;
    for (const row of page) rows.set(row.id, row.title);
    if (page.length < 1000) return rows;
  }
}

async function createdRecordIds(url: string, headers: Record<string, string>, tableId: number): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const res = (await json(
      await fetch(`${url}/api/history?tableId=${tableId}&limit=100&page=${page}`, { headers }),
    )) as { data: Array<{ changeType: string; recordId: number | null }>; pagination: { hasNext: boolean } };
    for (const change of res.data)
      if (change.changeType === 'RECORD_CREATE' && change.recordId) ids.push(change.recordId);
    if (!res.pagination.hasNext) return ids;
  }
}

describe.each(testDialects)('kill -9 under write load on %s', (dialect: DialectName) => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('keeps every acknowledged write and its RECORD_CREATE', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-kill-'));
    cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
    const database = dialect === 'postgres' ? await createTestDatabase() : null;
    if (database) cleanups.push(() => database.drop());
    const env = {
      PORT: String(await freePort()),
      BASALT_DATA_DIR: dataDir,
      DATABASE_URL: database?.url ?? '',
      LOG_LEVEL: 'warn',
      API_RATE_LIMIT: '1000000',
      AUTH_RATE_LIMIT: '1000000',
    };

    let basalt: ServerProcess = await startServerProcess(env);
    cleanups.push(() => basalt.kill());
    const headers = await signUp(basalt.url);
    const table = (await json(
      await fetch(`${basalt.url}/api/tables`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'load', schema: { title: { type: 'text', required: true, unique: true } } }),
      }),
    )) as { id: number };

    let killed = false;
    const load = writeUntilStopped(basalt.url, headers, () => killed);
    await new Promise((resolve) => setTimeout(resolve, LOAD_MS));
    await basalt.kill();
    killed = true;
    const { acknowledged, refused, lost } = await load;
    // Writes were acknowledged, none was refused, and others were in flight when the process died.
    expect({ refused, enough: acknowledged.length > 50, lost: lost > 0 }).toEqual({
      refused: [],
      enough: true,
      lost: true,
    });

    basalt = await startServerProcess(env);
    const rows = await allRows(basalt.url, headers);
    const missing = acknowledged.filter(({ id, title }) => rows.get(id) !== title);
    expect({ missing, acknowledged: acknowledged.length }).toMatchObject({ missing: [] });

    const created = await createdRecordIds(basalt.url, headers, table.id);
    expect([...created].sort((a, b) => a - b)).toEqual([...rows.keys()].sort((a, b) => a - b));

    const after = await fetch(`${basalt.url}/api/table/load`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ title: 'after the restart' }),
    });
    expect(after.status).toBe(201);
    expect(((await after.json()) as { id: number }).id).toBeGreaterThan(Math.max(...rows.keys()));
  });
});

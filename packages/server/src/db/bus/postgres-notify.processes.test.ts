import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateBusDatabase, startBusNode, type TestBusNode, waitFor } from '../../testing/bus-nodes.js';
import { BUS_TEST_STOP } from '../../testing/bus-test-topics.js';
import { createTestDatabase } from '../../testing/test-server.js';

const hasPostgres = Boolean(process.env.TEST_DATABASE_URL);
const NODE_SCRIPT = fileURLToPath(new URL('../../testing/bus-node.ts', import.meta.url));

/** startNodeProcess runs testing/bus-node.ts in a process of its own and collects what it prints. */
function startNodeProcess(databaseUrl: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', NODE_SCRIPT, databaseUrl], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stdout?.setEncoding('utf8').on('data', (text: string) => (output.stdout += text));
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (output.stderr += text));
  return { child, output };
}

describe.skipIf(!hasPostgres)('event bus between two processes on PostgreSQL (needs TEST_DATABASE_URL)', () => {
  let database: { url: string; drop(): Promise<void> };
  let child: ChildProcess | null = null;
  let node: TestBusNode | null = null;

  beforeAll(async () => {
    database = await createTestDatabase();
    await migrateBusDatabase(database.url);
  });
  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await node?.bus.close();
    await database?.drop();
  });

  it('answers pings from another process in order, and that process ends by itself once its bus is closed', async () => {
    node = startBusNode(database.url);
    const pongs: Array<{ n: number; from: string; local: boolean }> = [];
    node.bus.subscribe('bus-test.pong', (pong, origin) => pongs.push({ ...pong, local: origin.local }));
    const started = startNodeProcess(database.url);
    child = started.child;
    const exited = once(child, 'exit');
    await waitFor(() => expect(started.output.stdout).toMatch(/^ready [0-9a-f]{16}\n/), 15_000);
    await waitFor(() => node?.bus.reliable);
    const otherNode = started.output.stdout.split(/\s/)[1];

    for (let n = 0; n < 200; n++) node.bus.publish('bus-test.ping', { n });
    await waitFor(() => expect(pongs).toHaveLength(200), 10_000);
    expect(pongs.map((p) => p.n)).toEqual(Array.from({ length: 200 }, (_, n) => n));
    expect(pongs.every((p) => p.from === otherNode && !p.local)).toBe(true);
    expect(otherNode).not.toBe(node.transport.nodeId);

    node.bus.publish('bus-test.ping', { n: BUS_TEST_STOP });
    let timer: NodeJS.Timeout | undefined;
    const [code, signal] = await Promise.race([
      exited,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('the process did not end')), 10_000);
      }),
    ]);
    clearTimeout(timer);
    expect({ code, signal, stdout: started.output.stdout.split('\n').at(-2) }).toEqual({
      code: 0,
      signal: null,
      stdout: 'closed',
    });
    expect(started.output.stderr).toBe('');
  });
});

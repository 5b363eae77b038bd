import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// A Basalt server in a process of its own (`basalt serve` from the TypeScript sources, one process, so a signal
// reaches the server itself), for the suites that need several nodes on one database or a process that dies: real
// HTTP, its own caches and bus connection. The one way the tests start one.

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const MAIN = path.join(REPO, 'packages/server/src/main.ts');

/** ServerProcess is a running `basalt serve` child process. */
export interface ServerProcess {
  url: string;
  dataDir: string;
  process: ChildProcess;
  /** stop ends it gracefully (SIGTERM) and waits for its exit. */
  stop(): Promise<void>;
  /** kill ends it at once (SIGKILL), as a crash or a power cut would, and waits for its exit. */
  kill(): Promise<void>;
  /** output is the end of what it wrote (stdout and stderr), for a failing test's message. */
  output(): string;
}

/** freePort asks the OS for a port nobody listens on. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        address && typeof address !== 'string' ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * startServerProcess starts `basalt serve` on a free port (or env's PORT) with the given environment (DATABASE_URL
 * for PostgreSQL; BASALT_DATA_DIR defaults to a fresh folder; SITE_URL to its own URL, `''` for none) and resolves
 * once it answers /api/health. tsx compiles the server as it starts, which took over 30 s on a loaded machine:
 * the default wait is generous.
 */
export async function startServerProcess(env: Record<string, string> = {}, timeoutMs = 90_000): Promise<ServerProcess> {
  // A PORT in env restarts a node where it was (a client reconnects to the same address).
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = env.BASALT_DATA_DIR ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-node-')));
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'serve'], {
    cwd: REPO,
    env: {
      ...process.env,
      LOG_LEVEL: 'silent',
      SITE_URL: url,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      BASALT_DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const keep = (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-16_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ended = (signal: NodeJS.Signals) => async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`basalt serve exited with ${child.exitCode}: ${stderr}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`basalt serve did not answer within ${timeoutMs} ms: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url, dataDir, process: child, stop: ended('SIGTERM'), kill: ended('SIGKILL'), output: () => stderr };
}

/** NodeReply is a node's answer: its status, headers and JSON body (null when empty). */
export interface NodeReply {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: the suites read arbitrary JSON answers.
  body: any;
}

/** callNode sends one request to a node (`base` is its URL), with a JSON body when given, and reads the answer. */
export async function callNode(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  json?: unknown,
): Promise<NodeReply> {
  const res = await fetch(base + path, {
    method,
    headers: json === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

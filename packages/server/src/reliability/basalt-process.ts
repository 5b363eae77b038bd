import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

// Basalt as a real child process (`node --import tsx main.ts serve`, one process, so a signal reaches the
// server itself and no wrapper), for the tests that kill it: the test owns the data directory or database and
// starts the process again on it.

const root = path.resolve(import.meta.dirname, '../../../..');
const main = path.join(root, 'packages/server/src/main.ts');
const READY_TIMEOUT_MS = 30_000;

/** BasaltProcess is a running `basalt serve` child. */
export interface BasaltProcess {
  url: string;
  /** output is what the process wrote so far (stdout and stderr). */
  output(): string;
  /** kill sends a signal and resolves once the process has exited. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** BasaltProcessOptions place the process: its port, data directory and (for PostgreSQL) database URL. */
export interface BasaltProcessOptions {
  port: number;
  dataDir: string;
  databaseUrl: string | null;
  env?: Record<string, string>;
}

/** freeTcpPort asks the OS for a port nobody listens on. */
export function freeTcpPort(): Promise<number> {
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

async function waitUntilServing(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`basalt exited with ${child.exitCode}:\n${output()}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`basalt did not answer within ${READY_TIMEOUT_MS} ms:\n${output()}`);
}

/** startBasaltProcess starts `basalt serve` and resolves once it answers /api/health. */
export async function startBasaltProcess(options: BasaltProcessOptions): Promise<BasaltProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', main, 'serve'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(options.port),
      HOST: '127.0.0.1',
      BASALT_DATA_DIR: options.dataDir,
      DATABASE_URL: options.databaseUrl ?? '',
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk) => {
    text += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    text += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${options.port}`;
  await waitUntilServing(url, child, () => text);
  return {
    url,
    output: () => text,
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

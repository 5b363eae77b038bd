import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './server-process.js';

// A real PgBouncer (Debian's package) in transaction mode in front of the test PostgreSQL, for the suites that
// check Basalt behind a pooler as managed PostgreSQL runs it. PgBouncer refuses to run as root: as root it runs
// as `nobody`, its files readable by all.

const BINARY = '/usr/sbin/pgbouncer';

/** hasPgBouncer tells whether PgBouncer is installed (.ci/run installs it). */
export function hasPgBouncer(): boolean {
  return spawnSync(BINARY, ['--version']).status === 0;
}

/** PgBouncer is a running pooler: `urlOf(directUrl)` is the same database reached through it. */
export interface PgBouncer {
  urlOf(directUrl: string): string;
  stop(): Promise<void>;
}

async function listening(port: number, child: ChildProcess, output: () => string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited with ${child.exitCode}: ${output()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`pgbouncer did not listen: ${output()}`);
}

/** startPgBouncer starts PgBouncer in transaction mode for the PostgreSQL server of `directUrl`. */
export async function startPgBouncer(directUrl: string, { poolSize = 2 } = {}): Promise<PgBouncer> {
  const server = new URL(directUrl);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-pgbouncer-'));
  await fs.chmod(dir, 0o755);
  const port = await freePort();
  const user = decodeURIComponent(server.username || 'postgres');
  const config = [
    '[databases]',
    `* = host=${server.hostname} port=${server.port || 5432}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'auth_type = trust',
    `auth_file = ${path.join(dir, 'users.txt')}`,
    'pool_mode = transaction',
    // Few server connections for many clients: a client's next transaction runs on another's connection.
    `default_pool_size = ${poolSize}`,
    'max_client_conn = 500',
    'ignore_startup_parameters = extra_float_digits',
    'unix_socket_dir =',
  ].join('\n');
  await fs.writeFile(path.join(dir, 'pgbouncer.ini'), config, { mode: 0o644 });
  await fs.writeFile(path.join(dir, 'users.txt'), `"${user}" ""\n`, { mode: 0o644 });
  const args = [path.join(dir, 'pgbouncer.ini')];
  const asRoot = process.getuid?.() === 0;
  const child = asRoot
    ? spawn('runuser', ['-u', 'nobody', '--', BINARY, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(BINARY, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    text = (text + chunk.toString()).slice(-4000);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    text = (text + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await listening(port, child, () => text);
  return {
    urlOf(url) {
      const through = new URL(url);
      through.hostname = '127.0.0.1';
      through.port = String(port);
      return through.toString();
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

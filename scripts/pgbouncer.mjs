// A real PgBouncer (Debian's package) in transaction mode in front of a PostgreSQL server, for the suite that
// runs Basalt behind a pooler and for the benchmark's pooled runs. PgBouncer refuses to run as root: as root it
// runs as `nobody`, its files readable by all.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const BINARY = '/usr/sbin/pgbouncer';

/** hasPgBouncer tells whether PgBouncer is installed (.ci/run installs it). */
export function hasPgBouncer() {
  return spawnSync(BINARY, ['--version']).status === 0;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const accepts = (port) =>
  new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

/** startPgBouncer starts PgBouncer in transaction mode for the PostgreSQL server of `directUrl`. */
export async function startPgBouncer(directUrl, { poolSize = 2 } = {}) {
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
  const child =
    process.getuid?.() === 0
      ? spawn('runuser', ['-u', 'nobody', '--', BINARY, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(BINARY, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('exit', () => resolve()));
  for (let i = 0; !(await accepts(port)); i++) {
    if (child.exitCode !== null || i > 100) {
      child.kill('SIGKILL');
      throw new Error(`pgbouncer did not start: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
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

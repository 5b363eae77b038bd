import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');
const tsx = path.join(root, 'node_modules/.bin/tsx');
const main = path.join(root, 'packages/server/src/main.ts');

// Every call starts the CLI from its TypeScript sources, a few seconds each on a busy machine.
describe('the basalt CLI', { timeout: 90_000 }, () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-cli-'));
    env = { ...process.env, BASALT_DATA_DIR: dataDir, LOG_LEVEL: 'info', DATABASE_URL: '' };
  });
  afterEach(() => fs.rm(dataDir, { recursive: true, force: true }));

  it('prints the same anon and service keys on every call', async () => {
    const first = await run(tsx, [main, 'keys'], { env });
    const second = await run(tsx, [main, 'keys'], { env });
    expect(first.stdout).toMatch(/anon key:\s+eyJ[\w-]+\.[\w-]+\.[\w-]+/);
    expect(first.stdout).toMatch(/service_role key:\s+eyJ/);
    expect(second.stdout).toBe(first.stdout);
  });

  it("prints an account's app keys with keys --app, the same on every call", async () => {
    await run(
      tsx,
      [main, 'create-admin', '--email', 'ada@example.com', '--password', 'Ada-Passw0rd!', '--username', 'ada'],
      {
        env,
      },
    );
    const first = await run(tsx, [main, 'keys', '--app', 'Ada'], { env });
    expect(first.stdout).toMatch(/ref:\s+[a-z]{20}/);
    expect(first.stdout).toMatch(/anon key:\s+eyJ[\w-]+\.[\w-]+\.[\w-]+/);
    expect((await run(tsx, [main, 'keys', '--app', 'ada'], { env })).stdout).toBe(first.stdout);
    const instance = await run(tsx, [main, 'keys'], { env });
    expect(instance.stdout).not.toContain(first.stdout.match(/anon key:\s+(\S+)/)?.[1] ?? '?');
    const unknown = await run(tsx, [main, 'keys', '--app', 'nobody'], { env }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(unknown).toMatchObject({ code: 1 });
  });

  it('migrates a new data directory and then finds it up to date', async () => {
    const first = await run(tsx, [main, 'migrate'], { env });
    expect(first.stdout).toContain('Applied migrations: 0001_accounts');
    await expect(fs.stat(path.join(dataDir, 'basalt.db'))).resolves.toBeTruthy();
    const second = await run(tsx, [main, 'migrate'], { env });
    expect(second.stdout).toContain('The database is up to date.');
  });

  it('refuses an unknown command with the usage and exit code 2', async () => {
    const result = await run(tsx, [main, 'frobnicate'], { env }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(result).toMatchObject({ code: 2 });
    expect('stderr' in result && result.stderr).toContain('Unknown command "frobnicate"');
  });

  it('refuses an invalid configuration with a clear message', async () => {
    const result = await run(tsx, [main, 'migrate'], { env: { ...env, PORT: 'eighty' } }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(result).toMatchObject({ code: 1 });
    expect('stderr' in result && result.stderr).toContain('Invalid configuration: PORT');
  });

  /** serve starts `basalt serve` and resolves with its URL, its output so far (growing) and its exit. */
  async function serve(extraEnv: Record<string, string> = {}) {
    const child: ChildProcess = spawn(tsx, [main, 'serve', '--port', '0'], { env: { ...env, ...extraEnv } });
    const out = { text: '' };
    child.stdout?.on('data', (chunk) => {
      out.text += chunk;
    });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no listen line in: ${out.text}`)), 20_000);
      child.stdout?.on('data', () => {
        const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out.text);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
    });
    const stop = async () => {
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      return exited;
    };
    return { url, out, stop };
  }

  it('serves, then shuts down cleanly on SIGTERM', async () => {
    const { url, out, stop } = await serve();
    const health = await fetch(`${url}/api/health`);
    expect(health.status).toBe(200);
    expect((await fetch(`${url}/api/activity`)).status).toBe(401);
    expect(await stop()).toBe(0);
    expect(out.text).toContain('shutting down');
    // At LOG_LEVEL=info a refused request has its line; a successful one only at debug.
    expect(out.text).toMatch(/"path":"\/api\/activity","status":401/);
    expect(out.text).not.toMatch(/"path":"\/api\/health"/);
  });

  it('writes a line for every request at LOG_LEVEL=debug', async () => {
    const { url, out, stop } = await serve({ LOG_LEVEL: 'debug' });
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    expect(await stop()).toBe(0);
    expect(out.text).toMatch(/"level":20,.*"path":"\/api\/health","status":200/);
  });
});

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

describe('the basalt CLI', () => {
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

  it('serves, then shuts down cleanly on SIGTERM', async () => {
    const child: ChildProcess = spawn(tsx, [main, 'serve', '--port', '0'], { env });
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no listen line in: ${output}`)), 20_000);
      child.stdout?.on('data', () => {
        const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
    });
    const health = await fetch(`${url}/api/health`);
    expect(health.status).toBe(200);
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('shutting down');
    expect(output).toMatch(/"path":"\/api\/health","status":200/);
  });
});

import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../../../config.js';
import type { Db } from '../../../db/database.js';
import type { Apps } from '../../apps/apps-config.js';
import type { LogWriter } from '../../logs/log-writer.js';
import type { Vault } from '../../secrets/secrets-vault.js';
import { functionEnvironment } from '../function-environment.js';
import { findVersion } from '../functions.store.js';
import { createInvocationRecorder, type InvocationRecorder } from '../invocation-recorder.js';
import { denoExecutable } from './deno-binary.js';
import { type EgressGateway, startEgressGateway } from './egress-gateway.js';
import { createProcessPool, type ProcessPool } from './process-pool.js';
import { prepareRuntimeFiles, type RuntimeFiles } from './runtime-files.js';

// The functions runtime of one server: its files, its egress gateway, its process pool and its invocation
// recorder, made on the first call (so a server whose functions are never called starts no Deno and bundles
// nothing) and closed with the server. Changes heard on the bus retire the processes they make stale.

/** FunctionsRuntime is what calls run on. */
export interface FunctionsRuntime {
  pool: ProcessPool;
  recorder: InvocationRecorder;
  gateway: EgressGateway;
  files: RuntimeFiles;
}

/** RuntimeHandle gives the runtime (made on first use) and closes it. */
export interface RuntimeHandle {
  get(): Promise<FunctionsRuntime>;
  /** peek gives the runtime if it was made (null otherwise), without making it. */
  peek(): Promise<FunctionsRuntime | null>;
  close(): Promise<void>;
}

// Basalt's own address as seen from this machine: where the gateway sends a function's calls back to Basalt.
function selfBaseUrl(app: FastifyInstance): string {
  const address = app.server.address() as AddressInfo | null;
  if (!address) return 'http://127.0.0.1';
  const host =
    address.address === '0.0.0.0' || address.address === '::'
      ? '127.0.0.1'
      : address.family === 'IPv6'
        ? `[${address.address}]`
        : address.address;
  return `http://${host}:${address.port}`;
}

/** RuntimeContext is what the runtime needs of the server: its context's parts, and its own address. */
export interface RuntimeContext {
  app: FastifyInstance;
  db: Db;
  config: Config;
  logs: LogWriter;
  log: FastifyBaseLogger;
  vault: Vault;
  apps: Apps;
}

/** createRuntimeHandle prepares nothing until the first get(). */
export function createRuntimeHandle(ctx: RuntimeContext): RuntimeHandle {
  const { app } = ctx;
  let made: Promise<FunctionsRuntime> | null = null;
  let unsubscribe: Array<() => void> = [];

  async function make(): Promise<FunctionsRuntime> {
    const { db, config } = ctx;
    const files = await prepareRuntimeFiles(config.dataDir);
    const gateway = await startEgressGateway({
      selfBaseUrl: () => selfBaseUrl(app),
      selfOrigins: () => {
        const base = new URL(selfBaseUrl(app));
        return new Set([new URL(config.siteUrl).origin, base.origin, `http://localhost:${base.port}`]);
      },
      onDenied: (owner, target, reason) =>
        ctx.logs.write({
          level: 'warn',
          source: 'functions',
          message: `A function's fetch to ${target} was refused: ${reason}`,
          accountId: owner.accountId,
          context: { functionId: owner.functionId, target },
        }),
    });
    let deno: string | null = null;
    const pool = createProcessPool({
      limits: config.functions,
      denoPath: () => {
        deno ??= denoExecutable(config.functions.denoPath);
        return deno;
      },
      files,
      gateway,
      environmentOf: (accountId) => functionEnvironment(ctx, accountId),
      async bundleOf(functionId, version) {
        const row = await findVersion(db.kysely, functionId, version);
        if (!row) throw new Error(`version ${version} of function ${functionId} is gone`);
        return row.bundle;
      },
    });
    unsubscribe = [
      db.bus.subscribe('function.changed', ({ functionId }) => pool.retireFunction(functionId)),
      db.bus.subscribe('secrets.changed', ({ accountId }) => pool.retireAccount(accountId)),
      // Rolled app keys: the processes hold the old ones in their environment.
      db.bus.subscribe('app.changed', ({ accountId, kind }) => {
        if (kind === 'keys') pool.retireAccount(accountId);
      }),
      db.bus.subscribe('account.deleted', ({ accountId }) => pool.retireAccount(accountId)),
      db.bus.onReset(() => pool.retireAll()),
    ];
    const recorder = createInvocationRecorder(db, ctx.logs, {
      everyInvocation: config.logRequests === 'all',
      onError: (error) => ctx.log.warn({ err: error }, 'could not store function invocations'),
    });
    return { pool, recorder, gateway, files };
  }

  return {
    get() {
      made ??= make();
      made.catch(() => {
        made = null;
      });
      return made;
    },
    peek: () => (made ? made.catch(() => null) : Promise.resolve(null)),
    async close() {
      if (!made) return;
      const runtime = await made.catch(() => null);
      if (!runtime) return;
      for (const stop of unsubscribe) stop();
      await runtime.pool.close();
      await runtime.recorder.close();
      await runtime.gateway.close();
      runtime.files.close();
    },
  };
}

#!/usr/bin/env node
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { type Config, loadConfig } from './config.js';
import { type Db, migrateToLatest, openDatabase } from './db/database.js';
import { recountRowCount } from './db/row-counts.js';
import { createTokenService } from './features/auth/sessions/tokens.service.js';
import type { ArchivePart } from './features/backups/backup-deps.js';

const USAGE = `Usage: basalt [command] [options]

Commands:
  serve           Serve the console and the APIs (default)
  migrate         Run pending database migrations and exit
  create-admin    Create an instance administrator: --email, --password, [--username]
  accounts        List the console accounts (email, username, created, admin / unconfirmed)
  reset-password  Set a console account's password and end its sessions: --email, --password
  signups <open|close>  Open or close console sign-ups (Settings → Instance)
  keys            Print the instance's anon and service keys; with --app <username>, that account's app keys
  recount         Count every table's rows again (after rows were loaded into the database outside Basalt)
  backup          Back the instance up into the backups folder; --out <file> also copies the archive there,
                  --files includes the stored files
  gen types       Print the supabase-js Database type of --app <username>'s tables; --out <file> writes it there
  restore <file>  Restore an archive, stored files too (the current state is backed up first); stop the server
                  first on SQLite

Options of serve: --port, --host (they override PORT and HOST)
Configuration comes from the environment: see the README.`;

// The archive parts besides the database (stored files), as the server's backups have them (app-routes.ts).
async function cliParts(db: Db, config: Config): Promise<ArchivePart[]> {
  const { createStorage } = await import('./features/storage/storage-context.js');
  const { storageArchivePart } = await import('./features/storage/storage-archive.js');
  return [storageArchivePart(createStorage(db, config))];
}

// The built console sits beside the server package: packages/console/dist.
function defaultConsoleDir(): string | null {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidate = path.resolve(here, '../../console/dist');
  return fs.existsSync(path.join(candidate, 'index.html')) ? candidate : null;
}

async function serve(config: Config): Promise<void> {
  // V8 learns from objects that outlive a young-generation collection to allocate their kind in the old generation
  // from the start. One bulk write or long list (thousands of rows read back through pg) teaches it that rows and
  // their dates live long; from then on every request's rows went to the old generation and were only freed by full
  // collections: on PostgreSQL a list's p99 doubled and a sixth of its throughput went. A server's rows die with
  // their request, so it allocates them young.
  setFlagsFromString('--no-allocation-site-pretenuring');
  // Loaded here, not above: the other commands need the database only, and start without the whole server.
  const { buildApp } = await import('./app.js');
  const app = await buildApp(config);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    // close() stops accepting, waits for in-flight requests, then runs onClose (the database).
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  const shown = config.host === '0.0.0.0' || config.host === '127.0.0.1' ? 'localhost' : config.host;
  app.log.info(
    { database: app.basalt.db.dialect.name, console: config.consoleDir ? 'served' : 'not built' },
    `Basalt is running at http://${shown}:${config.port}`,
  );
}

async function withDatabase<T>(config: Config, fn: (db: Db, applied: string[]) => Promise<T>): Promise<T> {
  const db = openDatabase(config);
  try {
    return await fn(db, await migrateToLatest(db));
  } finally {
    await db.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      username: { type: 'string' },
      app: { type: 'string' },
      out: { type: 'string' },
      files: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const command = positionals[0] ?? 'serve';
  if (values.help || command === 'help') {
    console.log(USAGE);
    return 0;
  }
  const env = {
    ...process.env,
    ...(values.port ? { PORT: values.port } : {}),
    ...(values.host ? { HOST: values.host } : {}),
  };
  const base = loadConfig(env);
  const config: Config = { ...base, consoleDir: base.consoleDir ?? defaultConsoleDir() };

  switch (command) {
    case 'serve':
      await serve(config);
      return -1;
    case 'migrate': {
      const applied = await withDatabase(config, async (_db, applied) => applied);
      console.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'The database is up to date.');
      return 0;
    }
    case 'recount':
      return withDatabase(config, async (db) => {
        const tables = await db.kysely.selectFrom('user_tables').select(['id', 'name']).orderBy('id').execute();
        for (const table of tables) {
          const rows = await db.kysely.transaction().execute((trx) => recountRowCount(trx, db.dialect, table.id));
          console.log(`${table.name} (t_${table.id}): ${rows.toLocaleString('en-US')} rows`);
        }
        console.log(`Recounted ${tables.length} tables.`);
        return 0;
      });
    case 'keys':
      return withDatabase(config, async (db) => {
        const tokens = await createTokenService(db.kysely, { issuer: `${config.siteUrl}/auth/v1` });
        if (values.app !== undefined) {
          const { printAppKeys } = await import('./features/apps/apps-cli.js');
          return printAppKeys(
            db,
            { tokens, siteUrl: config.siteUrl, mailDelivers: config.smtpUrl !== null },
            values.app,
          );
        }
        console.log(`API URL:          ${config.siteUrl}`);
        console.log(`anon key:         ${tokens.anonKey}`);
        console.log(`service_role key: ${tokens.serviceKey}`);
        return 0;
      });
    case 'backup': {
      const { backupFromCli } = await import('./features/backups/backups-cli.js');
      return withDatabase(config, async (db) =>
        backupFromCli(db, config, { out: values.out, files: values.files === true }, await cliParts(db, config)),
      );
    }
    case 'gen': {
      const { genTypesFromCli } = await import('./features/openapi/types-cli.js');
      return withDatabase(config, (db) => genTypesFromCli(db, positionals[1], values));
    }
    case 'restore': {
      const { restoreFromCli } = await import('./features/backups/backups-cli.js');
      return withDatabase(config, async (db) => restoreFromCli(db, config, positionals[1], await cliParts(db, config)));
    }
    case 'create-admin': {
      const { createAdminFromCli } = await import('./features/auth/routes/admin-cli.js');
      return withDatabase(config, (db) => createAdminFromCli(db, config, values));
    }
    case 'accounts': {
      const { listAccountsFromCli } = await import('./features/auth/routes/accounts-cli.js');
      return withDatabase(config, (db) => listAccountsFromCli(db));
    }
    case 'reset-password': {
      const { resetPasswordFromCli } = await import('./features/auth/routes/accounts-cli.js');
      return withDatabase(config, (db) => resetPasswordFromCli(db, values));
    }
    case 'signups': {
      const { signupsFromCli } = await import('./features/auth/routes/accounts-cli.js');
      return withDatabase(config, (db) => signupsFromCli(db, positionals[1]));
    }
    default:
      console.error(`Unknown command "${command}".\n\n${USAGE}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);

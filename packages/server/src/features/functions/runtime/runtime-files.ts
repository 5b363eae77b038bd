import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { SUPABASE_JS_SPECIFIER } from '../function-bundle.js';
import { entrySource, PRELUDE_SOURCE } from './deno-bootstrap.js';

// The files the function processes run, under <data dir>/functions:
//   prelude.js                the bootstrap (deno-bootstrap.ts)
//   vendor/supabase-js@<v>.js the one copy of supabase-js every function imports, bundled once from npm
//   import_map.json           maps @supabase/supabase-js (and its /cors entry) to it
//   versions/<id>-<v>/        one deployed version: entry.js (prelude, then the function) and function.js; written
//                             when its first process starts, the function's older ones removed then
//   deno/                     DENO_DIR: Deno's own cache (compiled code), never a download
// Sockets live in a private folder under the system's temporary directory: a Unix socket's path is limited to
// about 100 bytes, which a data directory's path may not leave room for.

const require = createRequire(import.meta.url);

/** RuntimeFiles says where a version's files and the shared ones are. */
export interface RuntimeFiles {
  root: string;
  denoDir: string;
  importMap: string;
  socketDir: string;
  /** versionEntry writes a version's files once and returns its entry module's path. */
  versionEntry(functionId: number, version: number, bundle: () => Promise<string>): Promise<string>;
  /** socketPath is a fresh socket path for a process. */
  socketPath(): string;
  /** close removes the socket folder. */
  close(): void;
}

async function vendorSupabaseJs(vendorDir: string): Promise<Record<string, string>> {
  const pkg = JSON.parse(fs.readFileSync(require.resolve('@supabase/supabase-js/package.json'), 'utf8')) as {
    version: string;
    exports?: Record<string, unknown>;
  };
  const entries: Array<[string, string]> = [[SUPABASE_JS_SPECIFIER, '']];
  if (pkg.exports?.['./cors']) entries.push([`${SUPABASE_JS_SPECIFIER}/cors`, '/cors']);
  const imports: Record<string, string> = {};
  for (const [specifier, subpath] of entries) {
    const file = path.join(vendorDir, `supabase-js${subpath.replace('/', '-')}@${pkg.version}.js`);
    if (!fs.existsSync(file)) {
      await build({
        stdin: {
          contents: `export * from '${SUPABASE_JS_SPECIFIER}${subpath}';`,
          resolveDir: path.dirname(fileURLToPath(import.meta.url)),
        },
        bundle: true,
        format: 'esm',
        platform: 'browser',
        target: 'esnext',
        outfile: `${file}.tmp`,
        logLevel: 'silent',
      });
      fs.renameSync(`${file}.tmp`, file);
    }
    imports[specifier] = pathToFileURL(file).href;
  }
  return imports;
}

/**
 * functionRelativePaths rewrites, in what a version's process writes (stack traces, Deno's errors), Basalt's file
 * paths as the function's own: its module is `index.ts`, as on Supabase, and the shared files are named from the
 * functions folder (prelude.js, vendor/…), so no log shows where the server keeps its data.
 */
export function functionRelativePaths(entry: string): (text: string) => string {
  const versionDir = path.dirname(entry);
  const root = path.dirname(path.dirname(versionDir));
  const replacements: Array<[string, string]> = [];
  // The bundle's source map already names the function's own code index.ts, in the version's folder.
  for (const file of ['function.js', 'entry.js']) {
    replacements.push(
      [pathToFileURL(path.join(versionDir, file)).href, 'index.ts'],
      [path.join(versionDir, file), 'index.ts'],
    );
  }
  for (const dir of [versionDir, root])
    replacements.push([`${pathToFileURL(dir).href}/`, ''], [`${dir}${path.sep}`, '']);
  return (text) => {
    let relative = text;
    for (const [from, to] of replacements) if (relative.includes(from)) relative = relative.replaceAll(from, to);
    return relative;
  };
}

/** prepareRuntimeFiles writes the shared files (the vendored supabase-js is bundled on first use) under dataDir. */
export async function prepareRuntimeFiles(dataDir: string): Promise<RuntimeFiles> {
  const root = path.join(dataDir, 'functions');
  const denoDir = path.join(root, 'deno');
  const vendorDir = path.join(root, 'vendor');
  const versionsDir = path.join(root, 'versions');
  for (const dir of [root, denoDir, vendorDir, versionsDir]) fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const prelude = path.join(root, 'prelude.js');
  fs.writeFileSync(prelude, PRELUDE_SOURCE);
  const importMap = path.join(root, 'import_map.json');
  fs.writeFileSync(importMap, JSON.stringify({ imports: await vendorSupabaseJs(vendorDir) }, null, 2));
  const socketDir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-fn-'));
  let sockets = 0;
  const writing = new Map<string, Promise<string>>();

  return {
    root,
    denoDir,
    importMap,
    socketDir,
    versionEntry(functionId, version, bundle) {
      const dir = path.join(versionsDir, `${functionId}-${version}`);
      const entry = path.join(dir, 'entry.js');
      const known = writing.get(entry);
      if (known) return known;
      const written = (async () => {
        if (fs.existsSync(entry)) return entry;
        const code = await bundle();
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        fs.writeFileSync(path.join(dir, 'function.js'), code);
        // The entry last: its presence says the version is complete.
        fs.writeFileSync(`${entry}.tmp`, entrySource(pathToFileURL(prelude).href));
        fs.renameSync(`${entry}.tmp`, entry);
        // The function's other versions: their processes loaded their files when they started.
        for (const other of fs.readdirSync(versionsDir)) {
          if (other.startsWith(`${functionId}-`) && other !== `${functionId}-${version}`) {
            fs.rmSync(path.join(versionsDir, other), { recursive: true, force: true });
            writing.delete(path.join(versionsDir, other, 'entry.js'));
          }
        }
        return entry;
      })();
      writing.set(entry, written);
      written.catch(() => writing.delete(entry));
      return written;
    },
    socketPath: () => path.join(socketDir, `${process.pid}-${++sockets}.sock`),
    close: () => fs.rmSync(socketDir, { recursive: true, force: true }),
  };
}

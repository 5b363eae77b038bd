// Builds what is out of date: the console bundle (Vite) and the server bundle (esbuild).
// `node scripts/build.mjs` skips a part whose output is newer than its sources; `--force` rebuilds both.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = (...parts) => path.join(root, ...parts);

function newestMtime(entries) {
  let newest = 0;
  const visit = (entry) => {
    if (!fs.existsSync(entry)) return;
    const stat = fs.statSync(entry);
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(entry))
        if (name !== 'node_modules' && name !== 'dist') visit(path.join(entry, name));
    } else if (!/\.test\.tsx?$/.test(entry)) {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  entries.forEach(visit);
  return newest;
}

function isStale(output, sources) {
  return !fs.existsSync(output) || fs.statSync(output).mtimeMs < newestMtime(sources);
}

const shared = [at('packages/shared/src'), at('packages/shared/package.json')];

/** buildConsole runs Vite's production build into packages/console/dist. */
export async function buildConsole({ force = false } = {}) {
  const sources = [
    at('packages/console/src'),
    at('packages/console/index.html'),
    at('packages/console/vite.config.ts'),
    at('packages/console/public'),
    ...shared,
  ];
  if (!force && !isStale(at('packages/console/dist/index.html'), sources)) return false;
  console.log('Building the console…');
  const { build } = await import('vite');
  // Vite and the React plugin read NODE_ENV from the environment; a build started by the test runner
  // (NODE_ENV=test) would compile JSX for React's development runtime and break in the browser.
  const previous = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ root: at('packages/console'), configFile: at('packages/console/vite.config.ts'), logLevel: 'warn' });
  } finally {
    if (previous === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = previous;
  }
  return true;
}

/** buildServer bundles the server (with the shared package inlined) into packages/server/dist/main.js. */
export async function buildServer({ force = false } = {}) {
  const sources = [at('packages/server/src'), at('packages/server/package.json'), ...shared];
  if (!force && !isStale(at('packages/server/dist/main.js'), sources)) return false;
  console.log('Building the server…');
  const esbuild = await import('esbuild');
  const pkg = JSON.parse(fs.readFileSync(at('packages/server/package.json'), 'utf8'));
  const external = Object.keys(pkg.dependencies ?? {}).filter((name) => name !== '@basalt/shared');
  await esbuild.build({
    entryPoints: [at('packages/server/src/main.ts')],
    outfile: at('packages/server/dist/main.js'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    sourcemap: true,
    external: [...external, 'zod'],
    logLevel: 'warning',
  });
  return true;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const force = process.argv.includes('--force');
  await buildConsole({ force });
  await buildServer({ force });
}

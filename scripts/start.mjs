// `npm start` and `npm run basalt -- <command>`: build what is not built yet, then run the CLI.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(
    `Basalt needs Node.js 22.12 or newer; this is ${process.version}. Install a newer Node.js and try again.`,
  );
  process.exit(1);
}

const { buildConsole, buildServer } = await import('./build.mjs');
await buildConsole();
await buildServer();

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// main.js reads process.argv.slice(2), which is exactly the arguments given to this script.
await import(pathToFileURL(path.join(root, 'packages/server/dist/main.js')).href);

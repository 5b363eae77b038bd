// `npm run dev`: the server with reload on change (tsx watch) and the console with hot reload (Vite).
// Open the console at http://localhost:5173; Vite proxies /api, /auth/v1 and /rest/v1 to the server on 8787.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

const children = [
  spawn(bin('tsx'), ['watch', '--clear-screen=false', 'packages/server/src/main.ts', 'serve'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, BASALT_CONSOLE_DIR: '' },
  }),
  spawn(bin('vite'), [], { cwd: path.join(root, 'packages/console'), stdio: 'inherit' }),
];

const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) {
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
}

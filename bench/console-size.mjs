// `npm run bench:console-size`: the JavaScript a first visit of the console downloads — the entry script and the
// chunks index.html preloads (`<link rel="modulepreload">`), gzip-compressed — per file and in total. Issue 33's
// target: not larger than before the issue (7504223). Lazy chunks (Recharts, the pages) are not counted: they
// load when a page or a chart first shows.
// Usage: node bench/console-size.mjs [--checkout DIR]... [--no-build]
//   --checkout: a checkout to measure (a `git worktree add /tmp/x <commit>` with `npm ci` run in it); repeatable,
//   the first is the reference of the differences; default: this one. Each is built with its own Vite
//   (scripts/build.mjs's buildConsole) unless --no-build.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';
import { root } from './setup.mjs';

const { values } = parseArgs({
  options: { checkout: { type: 'string', multiple: true, default: [root] }, build: { type: 'boolean', default: true } },
  allowNegative: true,
});

/** firstDownload lists the entry and preloaded scripts of a built console and their gzip sizes. */
function firstDownload(dist) {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const files = [
    ...html.matchAll(/<script type="module"[^>]*src="([^"]+)"/g),
    ...html.matchAll(/<link rel="modulepreload"[^>]*href="([^"]+)"/g),
  ].map((m) => m[1]);
  return files.map((file) => {
    const body = fs.readFileSync(path.join(dist, file.replace(/^\//, '')));
    // Level 9, as a server compressing static files ahead of time would.
    return { file, raw: body.length, gzip: zlib.gzipSync(body, { level: 9 }).length };
  });
}

const measured = [];
for (const checkout of values.checkout) {
  const dir = path.resolve(checkout);
  if (values.build) {
    const { buildConsole } = await import(pathToFileURL(path.join(dir, 'scripts/build.mjs')).href);
    await buildConsole({ force: true });
  }
  const files = firstDownload(path.join(dir, 'packages/console/dist'));
  const total = files.reduce((sum, f) => sum + f.gzip, 0);
  console.log(`\n${dir}`);
  for (const f of files) console.log(`  ${f.file.padEnd(44)} ${String(f.raw).padStart(9)} B  gzip ${f.gzip} B`);
  console.log(`  first download (gzip): ${total} B`);
  measured.push({ dir, total, files });
}
for (const other of measured.slice(1)) {
  const diff = other.total - measured[0].total;
  console.log(`\n${other.dir} − ${measured[0].dir}: ${diff >= 0 ? '+' : ''}${diff} B`);
}

// The bare baseline of `npm run bench:storage`: node:http with fs streams, nothing else. PUT /f/<name> streams
// the body to a file (a temporary name renamed when complete, as Basalt does); GET /f/<name> streams it back.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

const dir = process.argv[2];
fs.mkdirSync(dir, { recursive: true });
let sequence = 0;
const server = http.createServer(async (req, res) => {
  const name = path.basename(decodeURIComponent(req.url.slice(3)));
  const file = path.join(dir, name);
  try {
    if (req.method === 'PUT') {
      const partial = `${file}.${++sequence}.partial`;
      await pipeline(req, fs.createWriteStream(partial));
      await fs.promises.rename(partial, file);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      return;
    }
    const stat = await fs.promises.stat(file);
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': stat.size });
    await pipeline(fs.createReadStream(file), res);
  } catch {
    if (!res.headersSent) res.writeHead(404).end();
  }
});
server.listen(0, '127.0.0.1', () => console.log(`Baseline listening at http://127.0.0.1:${server.address().port}`));

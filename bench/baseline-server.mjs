// The benchmark's baseline: bare node:http + better-sqlite3 prepared statements over the same
// table Basalt serves (10,000 rows, or --rows), with the same durability settings (WAL, synchronous=NORMAL).
// A list counts its total with SELECT count(*) unless asked `count=none` (the uncounted list).
// Usage: node bench/baseline-server.mjs <port> <dataDir> [rows]; prints "listening <port>" when ready.
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';

const port = Number(process.argv[2] ?? 0);
const dataDir = process.argv[3];
const rows = Number(process.argv[4] ?? 10_000);
if (!dataDir) throw new Error('usage: baseline-server.mjs <port> <dataDir> [rows]');

const db = new Database(path.join(dataDir, 'baseline.db'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(`CREATE TABLE IF NOT EXISTS items (
  id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, qty REAL, done INTEGER,
  owner TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL)`);

const insertStatement = db.prepare(
  'INSERT INTO items (name, qty, done, created_at, updated_at) VALUES (?, ?, ?, ?, ?) RETURNING *',
);
// all(), not get(): with an INSERT … RETURNING read by get(), SQLite's automatic checkpoints never take effect
// and the WAL grows without end (250 MB after 30,000 inserts, where all() keeps it at 4 MB): every create then
// skips the checkpoint work that a server running for long, Basalt included, has to do.
const insert = (...values) => insertStatement.all(...values)[0];
if (db.prepare('SELECT count(*) AS n FROM items').get().n === 0) {
  // One statement, as Basalt's table is seeded (bench/setup.mjs): row i has qty i % 1000, done i % 2, and an owner
  // (a text of a user id's length) of ten, as Basalt's rows have the ids of ten end users.
  const now = new Date().toISOString();
  db.prepare(`INSERT INTO items (name, qty, done, owner, created_at, updated_at)
    WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ?)
    SELECT 'item ' || i, i % 1000, i % 2, printf('00000000-0000-4000-8000-%012d', i % 10), ?, ? FROM s`).run(
    rows,
    now,
    now,
  );
}
// `+?` rather than `?` for the limit and offset: SQLite compiles a statement again whenever a new value is bound to a
// bare `?` in LIMIT (whose value could change the plan), and the limit must not pay that.
const list = db.prepare('SELECT * FROM items WHERE qty > ? ORDER BY id DESC LIMIT +? OFFSET +?');
const count = db.prepare('SELECT count(*) AS n FROM items WHERE qty > ?');
const getOne = db.prepare('SELECT * FROM items WHERE id = ?');

const toJson = (row) => ({ ...row, done: row.done === 1 });

function send(res, status, body, headers = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  const match = /^\/items(?:\/(\d+))?$/.exec(url.pathname);
  if (!match) return send(res, 404, { error: 'not found' });
  if (req.method === 'GET' && match[1]) {
    const row = getOne.get(Number(match[1]));
    return row ? send(res, 200, toJson(row)) : send(res, 404, { error: 'not found' });
  }
  if (req.method === 'GET') {
    const min = Number(url.searchParams.get('qty_gt') ?? 500);
    const limit = Math.min(1000, Number(url.searchParams.get('limit') ?? 20));
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const page = list.all(min, limit, offset).map(toJson);
    if (url.searchParams.get('count') === 'none') return send(res, 200, page);
    return send(res, 200, page, { 'x-total-count': String(count.get(min).n) });
  }
  if (req.method === 'POST') {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      try {
        const input = JSON.parse(body);
        const now = new Date().toISOString();
        send(res, 201, toJson(insert(String(input.name), Number(input.qty), input.done ? 1 : 0, now, now)));
      } catch {
        send(res, 400, { error: 'bad json' });
      }
    });
    return;
  }
  send(res, 405, { error: 'method not allowed' });
});

server.listen(port, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));

// The embedded-select benchmark's bare baseline: node:http and the one hand-written join that gives the same
// answer as `posts?select=id,title,author:authors(name),comments(count)&order=id&limit=20&offset=N`, over
// Basalt's own tables (SQLite file or PostgreSQL database), one statement per request.
// Usage: node bench/relations-baseline.mjs <port> <sqlite file | postgres url> <posts id> <authors id> <comments id>
import http from 'node:http';

const [portText, where, posts, authors, comments] = process.argv.slice(2);
// The page first, then its authors and counts: the select list of rows an OFFSET skips is never computed.
const sql = `WITH page AS (SELECT id, title, author_id FROM "t_${posts}" ORDER BY id LIMIT 20 OFFSET %)
  SELECT page.id, page.title, a.name AS author_name,
    (SELECT count(*) FROM "t_${comments}" c WHERE c.post_id = page.id) AS comment_count
  FROM page LEFT JOIN "t_${authors}" a ON a.id = page.author_id ORDER BY page.id`;

let query;
if (where.startsWith('postgres')) {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: where, max: 4 });
  pool.on('error', () => {});
  query = async (offset) => (await pool.query(sql.replace('%', '$1'), [offset])).rows;
} else {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(where, { readonly: true });
  db.pragma('busy_timeout = 10000');
  const statement = db.prepare(sql.replace('%', '?'));
  query = async (offset) => statement.all(offset);
}

const server = http.createServer(async (req, res) => {
  const offset = Number(new URL(req.url, 'http://x').searchParams.get('offset') ?? 0);
  const rows = await query(offset);
  const body = rows.map((r) => ({
    id: Number(r.id),
    title: r.title,
    author: r.author_name === null ? null : { name: r.author_name },
    comments: [{ count: Number(r.comment_count) }],
  }));
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
});
server.listen(Number(portText), '127.0.0.1', () => console.log(`listening ${server.address().port}`));

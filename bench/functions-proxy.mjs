// The least a Node.js server in front of a function can do: forward each request to the bare Deno over kept-alive
// connections and pass its answer back, nothing else (no auth, no limits, no log). bench/functions.mjs measures it
// beside Basalt, as the ceiling of any design that keeps a Node.js process in the call's path.
// Usage: node bench/functions-proxy.mjs <target url>; prints "listening <port>" when ready.
import http from 'node:http';

const target = new URL(process.argv[2]);
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

const server = http.createServer((req, res) => {
  const upstream = http.request(
    { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers, agent },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => {
    res.writeHead(502);
    res.end();
  });
  req.pipe(upstream);
});
server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));

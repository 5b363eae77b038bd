// The code that runs inside each function's Deno process, around the function's own module. It is JavaScript for
// Deno, kept here as text so that the server bundle carries it (runtime/runtime-files.ts writes it out).
//
// The prelude, before the function's module is imported:
//   - reads its boot message from stdin (the environment: the account's secrets and SUPABASE_*; the socket to
//     listen on; the egress gateway; the response limit) and sets the environment variables;
//   - ends itself once Basalt's server process is gone (its parent changes), so no process outlives a crash;
//   - captures console.* per invocation (AsyncLocalStorage), so each invocation's log holds its own output;
//   - takes over Deno.serve: the function's handler is remembered, not served;
//   - routes fetch through Basalt's egress gateway, the one network address the process may reach, which refuses
//     private and metadata addresses (egress-gateway.ts); redirects are followed hop by hop through it.
// start() then serves the handler (from Deno.serve or `export default { fetch }`) on the Unix socket Basalt
// talks to, handing it the request under the URL its caller used (x-forwarded-proto and -host, which Basalt sets),
// as Supabase's runtime does: not the socket's http+unix:// one, whose origin is "null". Every answer is an envelope: a JSON head {status, headers, logs, error} and the body, in one body.

/** READY_MARKER is the line the prelude writes to stdout once it listens. */
export const READY_MARKER = '\u0000basalt:ready';

/** NO_HANDLER_EXIT_CODE is the exit code of a module that registered no handler. */
export const NO_HANDLER_EXIT_CODE = 70;

/** PRELUDE_SOURCE is the prelude module's text. */
export const PRELUDE_SOURCE = String.raw`
import { AsyncLocalStorage } from 'node:async_hooks';

const boot = JSON.parse(await new Response(Deno.stdin.readable).text());

// A process whose server died (killed, crashed) ends too: it is re-parented, and its parent id changes.
const parent = Deno.ppid;
Deno.unrefTimer(setInterval(() => {
  if (Deno.ppid !== parent) Deno.exit(0);
}, 1000));
for (const [name, value] of Object.entries(boot.env)) Deno.env.set(name, value);

// console.* → the current invocation's log (or the boot log, for output outside any invocation).
const invocation = new AsyncLocalStorage();
const bootLogs = [];
const MAX_LINES = boot.logLines;
const MAX_CHARS = boot.logChars;
const format = (args) =>
  args.map((arg) => (typeof arg === 'string' ? arg : Deno.inspect(arg, { depth: 4, colors: false }))).join(' ');
const capture = (level) => (...args) => {
  const logs = invocation.getStore() ?? bootLogs;
  if (logs.length > MAX_LINES) return;
  if (logs.length === MAX_LINES) {
    logs.push({ level: 'warn', message: '(more output was cut)' });
    return;
  }
  const message = format(args);
  logs.push({ level, message: message.length > MAX_CHARS ? message.slice(0, MAX_CHARS) + '…' : message });
};
for (const [method, level] of [
  ['log', 'info'], ['info', 'info'], ['debug', 'debug'], ['trace', 'debug'], ['dir', 'info'],
  ['warn', 'warn'], ['error', 'error'], ['table', 'info'],
]) {
  console[method] = capture(level);
}

// Deno.serve registers the handler; Basalt serves it.
let registered = null;
const realServe = Deno.serve.bind(Deno);
Deno.serve = function serve(first, second) {
  const handler = typeof first === 'function' ? first : typeof second === 'function' ? second : first?.handler;
  if (typeof handler !== 'function') throw new TypeError('Deno.serve needs a handler function');
  registered = handler;
  return {
    finished: new Promise(() => {}),
    addr: { transport: 'tcp', hostname: '0.0.0.0', port: 8000 },
    ref() {},
    unref() {},
    shutdown: async () => {},
    [Symbol.asyncDispose]: async () => {},
  };
};

// fetch → the egress gateway, which checks and forwards the request to its target.
const realFetch = globalThis.fetch;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
globalThis.fetch = async function fetch(input, init) {
  let request = new Request(input, init);
  const body = request.body === null ? null : await request.arrayBuffer();
  for (let hop = 0; hop <= 20; hop++) {
    const headers = new Headers(request.headers);
    headers.set('x-basalt-target', request.url);
    const sent = body === null || request.method === 'GET' || request.method === 'HEAD' ? null : body;
    const response = await realFetch(boot.gateway, {
      method: request.method,
      headers,
      body: sent,
      redirect: 'manual',
      signal: request.signal,
    });
    const denied = response.headers.get('x-basalt-egress-denied');
    if (denied !== null) throw new (Deno.errors.NotCapable ?? Deno.errors.PermissionDenied)(denied);
    const failed = response.headers.get('x-basalt-egress-error');
    if (failed !== null) throw new TypeError('fetch failed: ' + failed);
    const location = response.headers.get('location');
    if (request.redirect === 'manual' || !REDIRECTS.has(response.status) || location === null) {
      Object.defineProperty(response, 'url', { value: request.url });
      return response;
    }
    if (request.redirect === 'error') throw new TypeError('fetch failed: the response was a redirect');
    await response.body?.cancel();
    const keepsMethod = response.status === 307 || response.status === 308;
    const method = keepsMethod || request.method === 'HEAD' ? request.method : 'GET';
    request = new Request(new URL(location, request.url), {
      method,
      headers: request.headers,
      redirect: request.redirect,
      signal: request.signal,
    });
  }
  throw new TypeError('fetch failed: too many redirects');
};

const encoder = new TextEncoder();

// The body whole (a stream that never ends runs into the wall clock, one that grows without end into the memory
// limit), or null past the limit: a declared length is checked before reading.
async function readLimited(response, limit) {
  if (response.body === null) return new Uint8Array(0);
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isSafeInteger(declared) && declared > limit) {
    await response.body.cancel().catch(() => {});
    return null;
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  return bytes.byteLength > limit ? null : bytes;
}

// The request as its caller addressed it: Basalt's scheme and host, and the path the function sees. The URL is
// set on the request itself (and on its clones): a new Request made from it would read its signal, which Deno warns
// about in every invocation's log.
function addressed(request, url) {
  const clone = request.clone.bind(request);
  return Object.defineProperties(request, {
    url: { value: url },
    clone: { value: () => addressed(clone(), url) },
  });
}

function asCalled(request) {
  const host = request.headers.get('x-forwarded-host');
  if (!host) return request;
  const proto = request.headers.get('x-forwarded-proto') === 'https' ? 'https' : 'http';
  try {
    const url = new URL(request.url);
    return addressed(request, new URL(proto + '://' + host + url.pathname + url.search).href);
  } catch {
    return request;
  }
}

function envelope(head, body) {
  const headBytes = encoder.encode(JSON.stringify(head));
  const out = new Uint8Array(headBytes.byteLength + body.byteLength);
  out.set(headBytes, 0);
  out.set(body, headBytes.byteLength);
  return new Response(out, { headers: { 'x-basalt-head': String(headBytes.byteLength) } });
}

export function start(module) {
  const exported = module.default;
  const handler =
    registered ?? (exported && typeof exported.fetch === 'function' ? exported.fetch.bind(exported) : null);
  if (!handler) {
    console.error = () => {};
    Deno.stderr.writeSync(
      encoder.encode('The function neither calls Deno.serve(handler) nor exports default { fetch }\n'),
    );
    Deno.exit(${NO_HANDLER_EXIT_CODE});
  }
  realServe(
    {
      path: boot.socket,
      onListen() {
        Deno.stdout.writeSync(encoder.encode(${JSON.stringify(`${READY_MARKER}\n`)}));
      },
      onError() {
        return new Response(null, { status: 500 });
      },
    },
    async (request, info) => {
      const logs = bootLogs.length > 0 ? bootLogs.splice(0) : [];
      const remote = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim() || '127.0.0.1';
      const callInfo = { remoteAddr: { transport: 'tcp', hostname: remote, port: 0 }, completed: info.completed };
      try {
        const response = await invocation.run(logs, () => handler(asCalled(request), callInfo));
        if (!(response instanceof Response)) throw new TypeError('The handler must return a Response');
        const body = await readLimited(response, boot.responseBytes);
        if (body === null) return envelope({ error: 'response_size', logs }, new Uint8Array(0));
        return envelope({ status: response.status, headers: [...response.headers], logs }, body);
      } catch (error) {
        logs.push({ level: 'error', message: 'Uncaught ' + format([error]) });
        return envelope({ error: 'threw', logs }, new Uint8Array(0));
      }
    },
  );
}
`;

/** entrySource is the module a process runs: the prelude first, then (once its environment is set) the function. */
export function entrySource(preludeUrl: string): string {
  return [`import { start } from ${JSON.stringify(preludeUrl)};`, `start(await import('./function.js'));`, ''].join(
    '\n',
  );
}

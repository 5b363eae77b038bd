// One load on one scenario: by autocannon, or by wrk (Debian's package), in the same shape of result.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

/** hasWrk tells whether wrk is installed (Debian's package `wrk`). */
export function hasWrk() {
  return spawnSync('wrk', ['--version'], { encoding: 'utf8' }).error === undefined;
}

/**
 * load runs one scenario for `duration` seconds over `connections` connections and returns autocannon's result,
 * or with `client: 'wrk'` wrk's, in the same shape: requests.average, latency.p50 and .p99 (ms), 2xx, non2xx, errors.
 */
export function load(scenario, { duration, connections, client = 'autocannon' }) {
  if (client === 'wrk') return loadWithWrk(scenario, { duration, connections });
  return autocannon({
    url: scenario.url,
    connections,
    duration,
    method: scenario.method,
    headers: scenario.headers,
    requests: [
      {
        method: scenario.method,
        setupRequest: (req) => ({
          ...req,
          ...(scenario.path ? { path: scenario.path() } : {}),
          ...(scenario.body ? { body: scenario.body() } : {}),
        }),
      },
    ],
  });
}

// How many paths and bodies a wrk script cycles through for a scenario that makes each request anew (a random id,
// a new row): enough that a server cache of recent answers does not see the same request twice in a while.
const WRK_VARIANTS = 20_000;

const luaString = (text) => JSON.stringify(text);

/** wrkScript is the Lua that has wrk send a scenario's requests: its method, headers, and paths or bodies in turn. */
function wrkScript(scenario) {
  const target = new URL(scenario.url);
  const fixedPath = target.pathname + target.search;
  const listOf = (make) => `{${Array.from({ length: WRK_VARIANTS }, () => luaString(make())).join(',')}}`;
  const lines = [`wrk.method = ${luaString(scenario.method)}`];
  for (const [name, value] of Object.entries(scenario.headers ?? {})) {
    lines.push(`wrk.headers[${luaString(name)}] = ${luaString(value)}`);
  }
  if (!scenario.path && !scenario.body) {
    lines.push(`wrk.path = ${luaString(fixedPath)}`);
    return lines.join('\n');
  }
  lines.push(`local paths = ${scenario.path ? listOf(scenario.path) : `{${luaString(fixedPath)}}`}`);
  lines.push(`local bodies = ${scenario.body ? listOf(scenario.body) : 'nil'}`);
  lines.push(
    'local i = 0',
    'request = function()',
    '  i = i + 1',
    '  return wrk.format(nil, paths[(i - 1) % #paths + 1], nil, bodies and bodies[(i - 1) % #bodies + 1])',
    'end',
  );
  return lines.join('\n');
}

// wrk prints times as 812.00us, 1.23ms or 2.00s.
function millisecondsOf(text) {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text ?? '');
  if (!match) return Number.NaN;
  const factor = { us: 0.001, ms: 1, s: 1000, m: 60_000 }[match[2]];
  return Number(match[1]) * factor;
}

function loadWithWrk(scenario, { duration, connections }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-wrk-'));
  const script = path.join(dir, 'scenario.lua');
  fs.writeFileSync(script, wrkScript(scenario));
  const origin = new URL(scenario.url).origin;
  // A count(*) over a million rows takes the bare baseline about half a second, so 32 requests queued behind one
  // another wait many seconds: wrk's own 2 s timeout would count them as errors.
  const args = ['-t1', `-c${connections}`, `-d${duration}s`, '--timeout', '60s', '--latency', '-s', script, origin];
  return new Promise((resolve, reject) => {
    // The child inherits this process's CPU (pinCpus).
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      fs.rmSync(dir, { recursive: true, force: true });
      const total = Number(/(\d+) requests in/.exec(out)?.[1]);
      const perSecond = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
      if (code !== 0 || !Number.isFinite(total) || !Number.isFinite(perSecond)) {
        reject(new Error(`wrk exited with ${code}: ${err || out}`));
        return;
      }
      const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
      const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
      const errors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
      const percentile = (p) => millisecondsOf(new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(out)?.[1]);
      resolve({
        requests: { average: perSecond },
        latency: { p50: percentile(50), p99: percentile(99) },
        '2xx': total - non2xx,
        non2xx,
        errors,
      });
    });
  });
}

// What a setting costs the record APIs, resolved finely enough to tell a 3 % difference on a busy shared machine
// (bench/metering.mjs: metering; bench/monitoring.mjs: request metrics). Four Basalt servers on SQLite, seeded alike
// (bench/setup.mjs): the measured pair, the setting on and off, and a control pair, both off. Each round loads the
// two servers of a pair AT THE SAME TIME with equal autocannon loads, so that every swing of the machine (other
// work, CPU frequency, the scheduler) hits both alike, and takes the ratio of their requests/s; the pairs take
// turns, operation by operation. The control's ratio (A/A: two identical servers) shows the noise floor beside the
// measured one. Many short rounds; each ratio is the median of its rounds, with a bootstrap 95 % interval of that
// median. Half the rounds run on servers started in the order on, control A, off, control B, the other half on
// fresh ones started off, control B, on, control A: the control's two sides stand to each other as on and off do,
// and which server started first evens out; which side's load starts first alternates from round to round.
// On a machine of two or more CPUs every server runs on CPU 1 and the load generator on CPU 0 (--no-pin:
// anywhere): the two servers of a pair, both busy, then share one core as the scheduler divides it evenly, so their
// ratio of requests is that of their costs per request, and whatever else runs on that core slows both alike.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildServer } from '../scripts/build.mjs';
import { cpuMsOf, cpuRatio, interval, median, medianInterval } from './paired.mjs';
import { basaltScenarios, load, pinCpus, root, seedBasalt, startProcess } from './setup.mjs';

/** onOffOptions reads the command line every on/off bench takes. */
export function onOffOptions({ rounds, extra = {} }) {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: String(rounds) },
      duration: { type: 'string', default: '1' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '10' },
      pin: { type: 'boolean', default: true },
      ...extra,
    },
    allowNegative: true,
  });
  return {
    values,
    rounds: Number(values.rounds),
    duration: Number(values.duration),
    warmup: Number(values.warmup),
    connections: Number(values.connections),
    pinned: values.pin && os.availableParallelism() >= 2,
  };
}

const r3 = (n) => Math.round(n * 1000) / 1000;
const fmt = (r) => `×${r.ratio.toFixed(3)} [${r.interval[0].toFixed(3)}–${r.interval[1].toFixed(3)}]`;

/**
 * runOnOff measures the setting `envOf(true)` against `envOf(false)` on the operations `picked` ([op, target] of
 * bench/setup.mjs's scenarios), prints the tables and returns what the results file keeps. `check(on)` runs on the
 * measured server after each half's rounds (that it did what the setting says).
 */
export async function runOnOff({ label, picked, envOf, target, options, check = async () => {} }) {
  const { rounds, duration, warmup, connections, pinned } = options;
  if (pinned) pinCpus({ server: '1', client: '0' });
  const pick = (server, i) => server.scenarios.find((s) => s.op === picked[i][0] && s.target === picked[i][1]);
  const tally = () => ({ requests: 0, cpuMs: 0 });
  const totalsOf = () => picked.map(() => ({ a: tally(), b: tally(), ratios: [], samples: [] }));
  // measured: a = on, b = off; control: a and b both off.
  const measured = totalsOf();
  const control = totalsOf();
  // How busy the load generator (this process) was while loading: near 100 % of a core, it may hold both servers
  // back alike and pull the ratios towards 1.
  let loadingMs = 0;
  let generatorCpuMs = 0;

  async function startServer(name, on) {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `basalt-${label}-${name.replace(' ', '-')}-`));
    const { child, port } = await startProcess(['packages/server/dist/main.js', 'serve', '--port', '0'], {
      logFile: path.join(dataDir, 'stdout.log'),
      env: {
        BASALT_DATA_DIR: path.join(dataDir, 'data'),
        DATABASE_URL: '',
        LOG_LEVEL: 'info',
        AUTH_RATE_LIMIT: '1000',
        API_RATE_LIMIT: '100000000',
        ...envOf(on),
      },
      pattern: /Server listening at http:\/\/127\.0\.0\.1:(\d+)/,
    });
    const url = `http://127.0.0.1:${port}`;
    return { name, child, url, dataDir, scenarios: basaltScenarios({ url, ...(await seedBasalt(url)) }) };
  }

  // One round of one operation on one pair: both servers under equal loads at once.
  async function loadTogether(a, b, i, aFirst, totals) {
    const cpuBefore = await Promise.all([cpuMsOf(a.child.pid), cpuMsOf(b.child.pid)]);
    const generatorBefore = process.cpuUsage();
    const began = performance.now();
    const loadOptions = { duration, connections };
    const [ra, rb] = aFirst
      ? await Promise.all([load(pick(a, i), loadOptions), load(pick(b, i), loadOptions)])
      : await Promise.all([load(pick(b, i), loadOptions), load(pick(a, i), loadOptions)]).then(([x, y]) => [y, x]);
    const cpuAfter = await Promise.all([cpuMsOf(a.child.pid), cpuMsOf(b.child.pid)]);
    loadingMs += performance.now() - began;
    const generator = process.cpuUsage(generatorBefore);
    generatorCpuMs += (generator.user + generator.system) / 1000;
    for (const [server, result] of [
      [a, ra],
      [b, rb],
    ]) {
      if (result.non2xx > 0 || result.errors > 0) {
        throw new Error(`${picked[i].join(' ')} (${server.name}): ${result.non2xx} non-2xx, ${result.errors} errors`);
      }
    }
    const t = totals[i];
    t.a.requests += ra.requests.total;
    t.b.requests += rb.requests.total;
    t.a.cpuMs += cpuAfter[0] - cpuBefore[0];
    t.b.cpuMs += cpuAfter[1] - cpuBefore[1];
    t.ratios.push(ra.requests.total / rb.requests.total);
    t.samples.push([ra.requests.total, cpuAfter[0] - cpuBefore[0], rb.requests.total, cpuAfter[1] - cpuBefore[1]]);
  }

  // Four servers, started in `order`, then `count` rounds: a warm-up first (reads before any create grows the
  // tables, the servers of a pair together as they will be measured), then each operation on each pair.
  async function runServers(order, firstRound, count) {
    const started = [];
    try {
      const by = {};
      for (const name of order) {
        by[name] = await startServer(name, name === 'on');
        started.push(by[name]);
      }
      const pairs = [
        [by.on, by.off, measured],
        [by['control A'], by['control B'], control],
      ];
      for (const [i] of picked.entries()) {
        for (const [a, b] of pairs) {
          await Promise.all([a, b].map((s) => load(pick(s, i), { duration: warmup, connections })));
        }
      }
      for (let round = firstRound; round < firstRound + count; round++) {
        for (const [i] of picked.entries()) {
          const aFirst = (round + i) % 2 === 0;
          // The pairs take turns going first too, so that neither always follows the other's creates.
          for (const [a, b, totals] of round % 2 === 0 ? pairs : [...pairs].reverse()) {
            await loadTogether(a, b, i, aFirst, totals);
          }
        }
        console.log(`round ${round + 1} of ${rounds} done (${order[0]} started first)`);
      }
      await check(by.on);
    } finally {
      for (const server of started) {
        const exited = new Promise((resolve) => server.child.once('exit', resolve));
        server.child.kill('SIGTERM');
        await exited;
        await fs.rm(server.dataDir, { recursive: true, force: true });
      }
    }
  }

  await buildServer();
  process.chdir(root);
  const firstHalf = Math.ceil(rounds / 2);
  await runServers(['on', 'control A', 'off', 'control B'], 0, firstHalf);
  await runServers(['off', 'control B', 'on', 'control A'], firstHalf, rounds - firstHalf);

  const summary = (t) => ({
    ratio: r3(median(t.ratios)),
    interval: medianInterval(t.ratios).map(r3),
    totalsRatio: r3(t.a.requests / t.b.requests),
    rounds: t.ratios.map(r3),
    cpu: { ratio: r3(cpuRatio(t.samples)), interval: interval(t.samples, cpuRatio).map(r3) },
  });
  const seconds = rounds * duration;
  const rows = picked.map(([op, through], i) => {
    const m = measured[i];
    return {
      op,
      through: `/${through}/items`,
      onRps: Math.round(m.a.requests / seconds),
      offRps: Math.round(m.b.requests / seconds),
      ...summary(m),
      onCpuUs: Math.round((m.a.cpuMs * 10000) / m.a.requests) / 10,
      offCpuUs: Math.round((m.b.cpuMs * 10000) / m.b.requests) / 10,
      control: summary(control[i]),
    };
  });
  const verdict = (r) =>
    r.interval[0] >= target
      ? 'met'
      : r.interval[1] < target
        ? 'missed'
        : r.ratio >= target
          ? 'met (unsure)'
          : 'missed (unsure)';
  console.log(
    `\n| operation | through | on req/s | off req/s | on ÷ off, median [95 %] | A/A control, median [95 %] | ratio of totals on ÷ off / A ÷ B | target ≥ ${target} |`,
  );
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const r of rows) {
    console.log(
      `| ${r.op} | \`${r.through}\` | ${r.onRps} | ${r.offRps} | ${fmt(r)} | ${fmt(r.control)} | ×${r.totalsRatio.toFixed(3)} / ×${r.control.totalsRatio.toFixed(3)} | ${verdict(r)} |`,
    );
  }
  console.log(
    '\n| operation | through | CPU µs per request on / off | requests per CPU-s on ÷ off [95 %] | A/A control [95 %] |',
  );
  console.log('| --- | --- | ---: | ---: | ---: |');
  for (const r of rows) {
    console.log(
      `| ${r.op} | \`${r.through}\` | ${r.onCpuUs} / ${r.offCpuUs} | ${fmt(r.cpu)} | ${fmt(r.control.cpu)} |`,
    );
  }
  const generatorBusy = Math.round((generatorCpuMs / loadingMs) * 100);
  console.log(
    `\nthe load generator was busy ${generatorBusy} % of a core while loading (load average ${os.loadavg()[0].toFixed(1)}; ${pinned ? 'servers on CPU 1, load generator on CPU 0' : 'not pinned'})`,
  );
  const overall = (list) => ({ ratio: r3(median(list)), interval: medianInterval(list).map(r3) });
  const all = overall(measured.flatMap((t) => t.ratios));
  const allControl = overall(control.flatMap((t) => t.ratios));
  console.log(`all operations, median of every round's ratio: on ÷ off ${fmt(all)}; A/A control ${fmt(allControl)}`);
  return {
    at: new Date().toISOString(),
    method: 'simultaneous pairs with an A/A control',
    rounds,
    duration,
    connections,
    loadAverage: os.loadavg().map((n) => Math.round(n * 100) / 100),
    generatorBusy,
    pinned,
    rows,
    all,
    allControl,
  };
}

/** writeResults writes a bench's results file under bench/results. */
export async function writeResults(file, results) {
  await fs.mkdir(path.join(root, 'bench/results'), { recursive: true });
  await fs.writeFile(path.join(root, 'bench/results', file), `${JSON.stringify(results, null, 2)}\n`);
}

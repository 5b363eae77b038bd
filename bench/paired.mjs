// What the benchmarks that load two servers at the same time share (bench/metering.mjs, bench/versions.mjs): both
// servers on one core under equal loads, so that every swing of the machine hits both alike, and the statistics of
// their per-round ratios.
import fs from 'node:fs/promises';

/** RESAMPLES is how many resamples the bootstrap intervals draw. */
const RESAMPLES = 2000;

export function median(list) {
  const sorted = [...list].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** interval is a 95 % interval of `statistic` over the rounds, by resampling them (their ratios are far from normal). */
export function interval(list, statistic) {
  const estimates = [];
  for (let r = 0; r < RESAMPLES; r++) {
    estimates.push(statistic(Array.from(list, () => list[Math.floor(Math.random() * list.length)])));
  }
  estimates.sort((x, y) => x - y);
  return [estimates[Math.floor(RESAMPLES * 0.025)], estimates[Math.ceil(RESAMPLES * 0.975) - 1]];
}

export const medianInterval = (list) => interval(list, median);

/**
 * cpuMsOf is the CPU time a process has used, in ms: /proc/<pid>/schedstat's run time in ns where the kernel keeps
 * it, else /proc/<pid>/stat's utime + stime (ticks of 10 ms). A server's CPU time per request hardly moves with what
 * else runs on the machine, where its requests/s swing by tens of %.
 */
export async function cpuMsOf(pid) {
  try {
    return Number((await fs.readFile(`/proc/${pid}/schedstat`, 'utf8')).split(' ')[0]) / 1e6;
  } catch {
    try {
      const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      return Number.NaN;
    }
  }
}

/** cpuRatio is a's requests per CPU-second ÷ b's over rounds of [a requests, a CPU ms, b requests, b CPU ms]. */
export function cpuRatio(samples) {
  const sum = (k) => samples.reduce((total, s) => total + s[k], 0);
  return sum(0) / sum(1) / (sum(2) / sum(3));
}

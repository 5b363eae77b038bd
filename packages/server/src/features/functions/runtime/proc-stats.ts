import fs from 'node:fs';

// What a function's process costs, read from Linux's /proc/<pid>/stat: CPU time (user + system) and resident
// memory. Elsewhere (macOS, Windows) null: the CPU and memory limits then rest on V8's heap limit and the wall clock.

// Clock ticks per second (sysconf(_SC_CLK_TCK)) and the page size; both are these values on every Linux Basalt
// targets (x86-64 and arm64).
const TICKS_PER_SECOND = 100;
const PAGE_BYTES = 4096;

/** ProcessStats is a process's CPU time so far and its resident memory now. */
export interface ProcessStats {
  cpuMs: number;
  rssBytes: number;
}

/** readProcessStats reads a process's stats, or null when /proc is not there (or the process is gone). */
export function readProcessStats(pid: number): ProcessStats | null {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return null;
  }
  // The command name (field 2) may hold spaces and parentheses: fields are counted after its closing one.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  const rssPages = Number(fields[21]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime) || !Number.isFinite(rssPages)) return null;
  return { cpuMs: ((utime + stime) * 1000) / TICKS_PER_SECOND, rssBytes: rssPages * PAGE_BYTES };
}

import fs from 'node:fs';

/**
 * CPU seconds used by processes, read from /proc (Linux). Wall-clock throughput on a 2-core machine depends on
 * whatever else runs there; CPU time per request does not, so the bench reports both.
 */
const TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux build Node supports.

function statFields(pid: number): string[] | null {
  try {
    const raw = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces; every field after its closing parenthesis is numeric.
    return raw.slice(raw.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** utime + stime of a live process (all its threads), plus its reaped children's when `withChildren`. */
export function processCpuSeconds(pid: number, withChildren = false): number | null {
  const f = statFields(pid);
  if (!f) return null;
  // After the name: state is index 0, so utime (field 14) is 11, stime 12, cutime 13, cstime 14.
  const ticks = Number(f[11]) + Number(f[12]) + (withChildren ? Number(f[13]) + Number(f[14]) : 0);
  return ticks / TICKS_PER_SECOND;
}

/**
 * Every CPU second a PostgreSQL cluster used: the postmaster, its live backends, and the backends that already
 * exited (the postmaster reaps them, so their time is in its children's counters).
 */
export function postgresCpuSeconds(dataDir: string): number | null {
  let postmaster: number;
  try {
    postmaster = Number(fs.readFileSync(`${dataDir}/postmaster.pid`, 'utf8').split('\n')[0]);
  } catch {
    return null;
  }
  let total = processCpuSeconds(postmaster, true);
  if (total === null) return null;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const f = statFields(Number(entry));
    // Field 4 (ppid) is index 1 after the name.
    if (f && Number(f[1]) === postmaster) total += processCpuSeconds(Number(entry)) ?? 0;
  }
  return total;
}

export type CpuMeter = { read(): Record<string, number> };

/** Reads the CPU seconds of each named source at once; `diff` of two readings is what a phase used. */
export function cpuMeter(sources: Record<string, () => number | null>): CpuMeter {
  return {
    read() {
      const out: Record<string, number> = {};
      for (const [name, read] of Object.entries(sources)) {
        const v = read();
        if (v !== null) out[name] = v;
      }
      return out;
    },
  };
}

export function cpuDiff(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(after)) out[k] = v - (before[k] ?? 0);
  return out;
}

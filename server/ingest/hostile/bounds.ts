// Time and memory bounds for the hostile-file tests. They guard against hangs and blow-ups (a reader that inflates a
// gigabyte, loops for ever), not against slowness: speed is for benchmarks. Test-only.

/** Far beyond what any corpus file needs on a busy two-core machine; a hang or a minutes-long parse exceeds it. */
export const TIME_BOUND_MS = 20_000;
/** Process memory a single file may add at its peak; the bombs in the corpus would take 1–3 GB. */
export const MEMORY_BOUND_MB = 768;

const MB = 1024 * 1024;

export type Measured<T> = {
  outcome: { ok: true; value: T } | { ok: false; error: unknown };
  ms: number;
  /** Peak resident memory above what the process held before, as far as it could be observed. */
  peakGrowthMb: number;
  /** False when the process's resident memory went more than MEMORY_BOUND_MB above where it was. */
  withinMemory: boolean;
};

/**
 * Runs `work` and observes it: the time it took, and the process's resident memory (which includes extraction
 * threads), both sampled while it runs (for work off the main thread) and through the kernel's high-water mark (for
 * synchronous work, which no sampler can interrupt). The high-water mark only ever rises, so the check is that it
 * did not rise past both its previous value and the bound above where this run started.
 */
export async function measured<T>(work: () => Promise<T>, boundMb = MEMORY_BOUND_MB): Promise<Measured<T>> {
  const rssBefore = process.memoryUsage.rss();
  const highBefore = process.resourceUsage().maxRSS * 1024;
  let sampledPeak = rssBefore;
  const sampler = setInterval(() => {
    sampledPeak = Math.max(sampledPeak, process.memoryUsage.rss());
  }, 20);
  const started = performance.now();
  let outcome: Measured<T>['outcome'];
  try {
    outcome = { ok: true, value: await work() };
  } catch (error) {
    outcome = { ok: false, error };
  } finally {
    clearInterval(sampler);
  }
  const ms = performance.now() - started;
  sampledPeak = Math.max(sampledPeak, process.memoryUsage.rss());
  const highAfter = process.resourceUsage().maxRSS * 1024;
  const limit = rssBefore + boundMb * MB;
  const peak = Math.max(sampledPeak, highAfter > highBefore ? highAfter : 0);
  return {
    outcome,
    ms,
    peakGrowthMb: Math.max(0, Math.round((peak - rssBefore) / MB)),
    withinMemory: sampledPeak <= limit && highAfter <= Math.max(highBefore, limit),
  };
}

/** One line per file for the figures table a test run can print (HOSTILE_FIGURES=1). */
export function figureLine(name: string, run: Measured<unknown>, result: string): string {
  return `${String(Math.round(run.ms)).padStart(6)} ms ${String(run.peakGrowthMb).padStart(5)} MB  ${name} → ${result}`;
}

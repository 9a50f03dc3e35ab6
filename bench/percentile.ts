/** The `p`-th quantile (0–1) of a list of timings, by nearest rank: what every benchmark here reports. */
export function percentile(ms: number[], p: number): number {
  const s = [...ms].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
}

/** A report line of timings as bench:ingest and bench:embed print them: label, count, median and p95 in ms. */
export function timingLine(label: string, ms: number[]): string {
  const median = percentile(ms, 0.5).toFixed(1);
  return `  ${label.padEnd(21)}n=${ms.length}  median ${median} ms  p95 ${percentile(ms, 0.95).toFixed(1)} ms`;
}

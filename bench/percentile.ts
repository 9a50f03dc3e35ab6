/** The `p`-th quantile (0–1) of a list of timings, by nearest rank: what every benchmark here reports. */
export function percentile(ms: number[], p: number): number {
  const s = [...ms].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
}

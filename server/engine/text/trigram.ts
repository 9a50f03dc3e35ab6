/**
 * pg_trgm's similarity, computed in memory: each word (a run of letters and digits, lower-cased) is padded with
 * two spaces before and one after and cut into three-character pieces; similarity is shared pieces over all
 * distinct pieces of both texts.
 */
export function trigramsOf(text: string): Set<string> {
  const set = new Set<string>();
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const padded = `  ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) set.add(padded.slice(i, i + 3));
  }
  return set;
}

export function trigramSimilarity(a: string, b: string): number {
  const x = trigramsOf(a);
  const y = trigramsOf(b);
  if (x.size === 0 || y.size === 0) return 0;
  let shared = 0;
  for (const t of x) if (y.has(t)) shared++;
  return shared / (x.size + y.size - shared);
}

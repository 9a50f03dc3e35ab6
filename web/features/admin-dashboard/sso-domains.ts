/**
 * The e-mail domains box as a list: people paste "acme.com, acme.co.uk", type "@acme.com" or a whole address;
 * each becomes a bare lower-case domain, once. What remains invalid is left for the schema to name.
 */
export function parseDomainTokens(tokens: readonly string[]): string[] {
  const domains: string[] = [];
  for (const token of tokens) {
    for (const piece of token.split(/[\s,;]+/)) {
      const domain = piece.slice(piece.lastIndexOf('@') + 1).toLowerCase();
      if (domain && !domains.includes(domain)) domains.push(domain);
    }
  }
  return domains;
}

type MaybeMessage = { message?: unknown } | undefined | null;

/**
 * One sentence for a list field's validation result, which react-hook-form gives either for the list (`message`,
 * or `root.message`) or per entry: an entry's sentence names the entry, so the admin knows which chip to fix.
 */
export function listFieldError(error: unknown, entries: readonly string[]): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const own = error as MaybeMessage & { root?: MaybeMessage };
  if (typeof own.message === 'string' && own.message) return own.message;
  if (typeof own.root?.message === 'string' && own.root.message) return own.root.message;
  if (Array.isArray(error)) {
    for (const [index, entry] of (error as MaybeMessage[]).entries()) {
      if (typeof entry?.message === 'string' && entry.message) {
        const value = entries[index];
        return value ? `${value}: ${entry.message}` : entry.message;
      }
    }
  }
  return undefined;
}

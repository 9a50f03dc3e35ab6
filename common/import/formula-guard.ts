/**
 * Spreadsheet formula-injection guard (OWASP "CSV injection"). Excel and LibreOffice run a cell that starts with
 * one of these characters as a formula, so the export prefixes such values with `'`, which both show as text.
 * `'` is itself in the set so that every exported value starting with `'` carries an extra one: that is what
 * makes the import side able to strip exactly one `'` without ever eating a quote the author wrote.
 */
const GUARDED_FIRST_CHARACTERS = new Set(['=', '+', '-', '@', '\t', '\r', "'"]);

/**
 * What may follow the guard's `'` on import. A superset of the guarded set is still exactly reversible (see above);
 * `\n` is added because the importers turn line breaks into `\n` before parsing, so a guarded `\r` arrives as `\n`.
 */
const UNGUARDED_AFTER_QUOTE = new Set([...GUARDED_FIRST_CHARACTERS, '\n']);

/** Prefixes a cell value with `'` when a spreadsheet would otherwise read it as a formula. */
export function neutraliseCell(value: string): string {
  const first = value.charAt(0);
  return GUARDED_FIRST_CHARACTERS.has(first) ? `'${value}` : value;
}

/** The inverse of {@link neutraliseCell}: drops the guard's `'` from a cell read back from a file. */
export function unneutraliseCell(value: string): string {
  return value.startsWith("'") && UNGUARDED_AFTER_QUOTE.has(value.charAt(1)) ? value.slice(1) : value;
}

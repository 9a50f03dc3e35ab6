/**
 * Spreadsheet formula-injection guard (OWASP "CSV injection"). Excel and LibreOffice run a cell that starts with
 * one of these characters as a formula, so the export prefixes such values with `'`, which both show as text.
 * `'` is itself in the set so that every exported value starting with `'` carries an extra one: that is what
 * makes the import side able to strip exactly one `'` without ever eating a quote the author wrote.
 */
const GUARDED_FIRST_CHARACTERS = new Set(['=', '+', '-', '@', '\t', '\r', "'"]);

/**
 * Where a spreadsheet may start a new cell inside what Verity wrote as one. Where the list separator is `;`
 * (German, French… Excel), a comma-separated file is split at `;` and at line breaks, and a quote in the middle of
 * such a piece is an ordinary character: `"Yes;=1+1"` becomes the cells `"Yes` and `=1+1"`, a formula. So the
 * character after each of these is guarded like a first character, and so is a `"` there, because a piece that
 * starts with `""=1+1` reads as an empty quoted text followed by the formula.
 */
const CELL_BREAKS = new Set([';', ',', '\t', '\r', '\n']);
const GUARDED_AFTER_BREAK = new Set([...GUARDED_FIRST_CHARACTERS, '"']);

/**
 * What may follow the guard's `'` on import. A superset of the guarded set is still exactly reversible (see above);
 * `\n` is added because the importers turn line breaks into `\n` before parsing, so a guarded `\r` arrives as `\n`.
 */
const UNGUARDED_FIRST = new Set([...GUARDED_FIRST_CHARACTERS, '\n']);
const UNGUARDED_AFTER_BREAK = new Set([...GUARDED_AFTER_BREAK, '\n']);

/** Prefixes with `'` the cell's start and every place after a break where a spreadsheet would read a formula. */
export function neutraliseCell(value: string): string {
  let out = '';
  let guarded: ReadonlySet<string> | undefined = GUARDED_FIRST_CHARACTERS;
  for (const c of value) {
    if (guarded?.has(c)) out += "'";
    out += c;
    guarded = CELL_BREAKS.has(c) ? GUARDED_AFTER_BREAK : undefined;
  }
  return out;
}

/** The inverse of {@link neutraliseCell}: drops the guard's `'`s from a cell read back from a file. */
export function unneutraliseCell(value: string): string {
  if (!value.includes("'")) return value;
  let out = '';
  let unguarded: ReadonlySet<string> | undefined = UNGUARDED_FIRST;
  for (let i = 0; i < value.length; i++) {
    let c = value.charAt(i);
    if (c === "'" && unguarded?.has(value.charAt(i + 1))) c = value.charAt(++i);
    out += c;
    unguarded = CELL_BREAKS.has(c) ? UNGUARDED_AFTER_BREAK : undefined;
  }
  return out;
}

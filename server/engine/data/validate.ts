import type { z } from 'zod';

/** Issues listed in the error: the first few say enough to fix a file. */
const MAX_ISSUES = 5;

/**
 * The engine's data files are checked against their schema when they are loaded, so a bad edit stops the process at
 * start with the file, the entry and what is wrong, instead of answering with a half-read thesaurus or taxonomy.
 */
export function parseDataFile<T extends z.ZodType>(file: string, schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.slice(0, MAX_ISSUES).map((issue) => {
    const entry = entryAt(value, issue.path);
    const where = issue.path.map(String).join('.') || '(root)';
    return `${entry ? `entry ${entry} ` : ''}at ${where}: ${issue.message}`;
  });
  const more = result.error.issues.length - issues.length;
  throw new Error(`${file} is invalid: ${issues.join('; ')}${more > 0 ? ` (and ${more} more)` : ''}`);
}

/** The innermost entry on a path, named by its `id` or `canonical` field: what a person looks for in the file. */
function entryAt(value: unknown, path: readonly PropertyKey[]): string | null {
  let node: unknown = value;
  let name: string | null = null;
  for (const key of [undefined, ...path]) {
    if (key !== undefined) {
      if (typeof node !== 'object' || node === null) break;
      node = (node as Record<PropertyKey, unknown>)[key];
    }
    if (typeof node === 'object' && node !== null) {
      const fields = node as Record<string, unknown>;
      const label = typeof fields.id === 'string' ? fields.id : fields.canonical;
      if (typeof label === 'string') name = JSON.stringify(label);
    }
  }
  return name;
}

import fs from 'node:fs';
import path from 'node:path';

// The e2e server asks a local DNS server (started in global-setup.ts) that answers from files in a folder the specs
// write to, since specs run in other processes: one file per name, one TXT value per line.

const NAME = /^[a-z0-9_][a-z0-9_.-]*$/;

function fileOf(dir: string, name: string): string | null {
  const key = name.toLowerCase();
  return NAME.test(key) && !key.includes('..') ? path.join(dir, key) : null;
}

/** The TXT values published at `name`, or undefined when none are. */
export function readTxt(dir: string, name: string): string[] | undefined {
  const file = fileOf(dir, name);
  if (!file || !fs.existsSync(file)) return undefined;
  return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

/** Publishes TXT values at `name`, as an admin would at their DNS host. */
export function publishTxt(dir: string, name: string, values: string[]): void {
  const file = fileOf(dir, name);
  if (!file) throw new Error(`not a DNS name: ${name}`);
  fs.writeFileSync(file, `${values.join('\n')}\n`);
}

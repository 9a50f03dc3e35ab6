import fs from 'node:fs';
import path from 'node:path';
import { inject, vi } from 'vitest';
import type { CaughtMail } from './mail-catcher';

/** Waits for a mail to `to` whose text matches `pattern` and returns the first match (e.g. a link). */
export function waitForMailMatch(to: string, pattern: RegExp): Promise<string> {
  const dir = inject('mailDir');
  return vi.waitFor(
    () => {
      for (const file of fs.readdirSync(dir).sort().reverse()) {
        const mail = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as CaughtMail;
        const match = mail.to.includes(to.toLowerCase()) ? pattern.exec(mail.text) : null;
        if (match) return match[0];
      }
      throw new Error(`no mail to ${to} matching ${String(pattern)} yet`);
    },
    { timeout: 15_000, interval: 100 },
  );
}

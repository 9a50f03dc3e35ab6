import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import type { CaughtMail } from './mail-catcher';
import { waitUntil } from '../test/helpers/wait';

/** Waits for a mail to `to` whose text matches `pattern` and returns the first match (e.g. a link). */
export function waitForMailMatch(to: string, pattern: RegExp): Promise<string> {
  const dir = inject('mailDir');
  return waitUntil(
    () => {
      for (const file of fs.readdirSync(dir).sort().reverse()) {
        const mail = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as CaughtMail;
        const match = mail.to.includes(to.toLowerCase()) ? pattern.exec(mail.text) : null;
        if (match) return match[0];
      }
      throw new Error(`no mail to ${to} matching ${String(pattern)} yet`);
    },
    { interval: 100 },
  );
}

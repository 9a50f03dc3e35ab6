import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type CaughtMail = { to: string[]; text: string };

/** Undoes quoted-printable transfer encoding (soft line breaks and =XX escapes) so links read as sent. */
function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * A real SMTP server on loopback for the e2e server's SMTP_URL. Every message it receives is written to `dir` as
 * one JSON file, so a spec (another process) can read the links that reset and invitation e-mails carry.
 */
export async function startMailCatcher(dir: string): Promise<{ port: number; close: () => Promise<void> }> {
  fs.mkdirSync(dir, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, done) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      stream.on('end', () => {
        const qp = /content-transfer-encoding:\s*quoted-printable/i.test(raw);
        const mail: CaughtMail = {
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          text: qp ? decodeQuotedPrintable(raw) : raw,
        };
        count += 1;
        fs.writeFileSync(path.join(dir, `${Date.now()}-${count}.json`), JSON.stringify(mail));
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

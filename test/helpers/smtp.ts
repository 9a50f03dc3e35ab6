import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export type Received = { to: string[]; raw: string };
export type LocalSmtp = { port: number; url: string; received: Received[]; close: () => Promise<void> };

/** A real SMTP server on loopback: Verity speaks SMTP to it exactly as it would to a relay. */
export function startSmtp(): Promise<LocalSmtp> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, done) {
      let raw = '';
      stream.on('data', (d: Buffer) => (raw += d.toString()));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        done();
      });
    },
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.server.address() as AddressInfo).port;
      resolve({
        port,
        url: `smtp://127.0.0.1:${port}`,
        received,
        close: () => new Promise<void>((r) => server.close(() => r())),
      });
    });
  });
}

/** The mails received for one address, as text: quoted-printable soft breaks and folded header lines undone. */
export function mailsTo(smtp: LocalSmtp, address: string): string[] {
  return smtp.received
    .filter((m) => m.to.includes(address))
    .map((m) =>
      m.raw
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
        .replace(/\r?\n[ \t]+/g, ' '),
    );
}

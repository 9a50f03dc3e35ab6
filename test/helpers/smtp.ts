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

const ENCODED_WORD = /=\?[^?\s]+\?([QqBb])\?([^?\s]*)\?=/g;

/** Header text as a mail client shows it: RFC 2047 encoded words (a subject with quotes or non-ASCII) decoded. */
function decodeWords(header: string): string {
  return (
    header
      // Folding white space between two encoded words is not part of the text.
      .replace(/(=\?[^?\s]+\?[QqBb]\?[^?\s]*\?=)\r?\n?[ \t]+(?==\?)/g, '$1')
      .replace(ENCODED_WORD, (_, encoding: string, data: string) =>
        encoding.toUpperCase() === 'B'
          ? Buffer.from(data, 'base64').toString('utf8')
          : Buffer.from(
              data
                .replace(/_/g, ' ')
                .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
              'latin1',
            ).toString('utf8'),
      )
  );
}

/**
 * The mails received for one address, as text: encoded header words decoded, quoted-printable soft breaks and
 * escapes undone (as UTF-8), and folded header lines unfolded.
 */
export function mailsTo(smtp: LocalSmtp, address: string): string[] {
  return smtp.received
    .filter((m) => m.to.includes(address))
    .map((m) => {
      const split = m.raw.indexOf('\r\n\r\n');
      const head = decodeWords(split < 0 ? m.raw : m.raw.slice(0, split));
      const body = split < 0 ? '' : m.raw.slice(split);
      const text = Buffer.from(
        body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
        'latin1',
      ).toString('utf8');
      return (head + text).replace(/\r?\n[ \t]+/g, ' ');
    });
}

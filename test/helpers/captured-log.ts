import pino from 'pino';

/** A pino logger at `warn` that keeps every line it writes, parsed, so a test can check what the server logged. */
export function capturedLog<Line extends { level: number; msg: string }>() {
  const lines: Line[] = [];
  const log = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line) as Line) });
  return { log, lines };
}

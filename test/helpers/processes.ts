import { spawn } from 'node:child_process';
import net from 'node:net';

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Runs the server in its own process: by default `server/main.ts` from the TypeScript sources (tsx), or the node
 * arguments given (test/build.test.ts runs the compiled build that way). `ready` resolves with 'ready' once it
 * listens, or with the exit code if it stops first.
 */
export function startServer(env: Record<string, string>, args: string[] = ['--import', 'tsx', 'server/main.ts']) {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<'ready' | number>((resolve) => {
    const onData = (d: Buffer) => {
      output += d.toString();
      if (output.includes('Verity is ready')) resolve('ready');
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => resolve(code ?? -1));
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  return { child, ready, stop, output: () => output };
}

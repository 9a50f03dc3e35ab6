import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: children run from it, as `npm start` and `npm run worker` do. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Every process and resource bench:scale starts, so that all of them end whatever way the bench ends: normally,
 * on an error, or on Ctrl-C. Async cleanups (graceful SIGTERM, dropping the database) run first; a synchronous
 * last pass on `exit` SIGKILLs whatever is still alive, because `exit` handlers cannot wait.
 */
type Cleanup = { name: string; run: () => Promise<void>; runSync?: () => void };
const cleanups: Cleanup[] = [];
let cleaning: Promise<void> | null = null;

/** Registers a cleanup; they run in reverse order of registration (children before the servers they use). */
export function onCleanup(c: Cleanup): void {
  cleanups.push(c);
}

/** Runs every registered cleanup once (later calls wait for the first). */
export function cleanupAll(): Promise<void> {
  cleaning ??= (async () => {
    for (const c of [...cleanups].reverse()) {
      await c.run().catch((err: unknown) => console.error(`cleanup of ${c.name} failed:`, err));
    }
    cleanups.length = 0;
  })();
  return cleaning;
}

let installed = false;
/** Ctrl-C, SIGTERM and a crash all clean up before the bench exits. */
export function installSignalHandlers(): void {
  if (installed) return;
  installed = true;
  const bail = (code: number) => (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: stopping every process the bench started…`);
    void cleanupAll().finally(() => process.exit(code));
  };
  process.once('SIGINT', bail(130));
  process.once('SIGTERM', bail(143));
  process.on('exit', () => {
    for (const c of cleanups) {
      try {
        c.runSync?.();
      } catch {
        // Best effort: the process is going away.
      }
    }
  });
}

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no free port'))));
    });
  });
}

export type Child = {
  name: string;
  process: ChildProcess;
  logFile: string;
  /** The log so far (to show why a child failed). */
  log(): string;
  stop(): Promise<void>;
};

/**
 * Spawns `node --import tsx <script>` with its output in a log file (not a pipe: the bench's event loop must not
 * spend time draining 2 processes' logs while it measures them). Registered for cleanup.
 */
export function spawnTsx(name: string, script: string, env: Record<string, string>, logFile: string): Child {
  const fd = fs.openSync(logFile, 'a');
  // SCALE_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) profiles the children; NODE_OPTIONS refuses those.
  const nodeArgs = (process.env.SCALE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', fd, fd],
  });
  fs.closeSync(fd);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    // A child that does not shut down within 10 s is killed: the bench must never leave processes behind.
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  onCleanup({
    name,
    run: stop,
    runSync: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  });
  return { name, process: child, logFile, log: () => fs.readFileSync(logFile, 'utf8'), stop };
}

/**
 * Polls `check` every 100 ms until it returns true; fails with `what` and the child's log after `timeoutMs`, or at
 * once when the child exits.
 */
export async function waitUntil(child: Child, what: string, check: () => Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { exitCode, signalCode } = child.process;
    if (exitCode !== null || signalCode !== null) {
      throw new Error(`${child.name} exited (${exitCode ?? signalCode}) before ${what}:\n${child.log().slice(-3000)}`);
    }
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${child.name}: no ${what} within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

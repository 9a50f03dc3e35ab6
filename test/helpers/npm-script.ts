import { spawn } from 'node:child_process';

export type ScriptRun = { code: number; stdout: string; stderr: string; output: string };

/**
 * Runs `npm run <script> -- <args>` as an operator would, in the repository, with `env` added to this process's
 * environment. Resolves when it exits; the test's own timeout guards against a hang.
 */
export function runNpmScript(script: string, args: string[], env: Record<string, string>): Promise<ScriptRun> {
  return run('npm', ['run', '--silent', script, '--', ...args], env);
}

/**
 * Runs a TypeScript entry point from its sources (tsx), without npm's own start-up or the compiled build its npm
 * script runs: for the many short runs of a test once the npm script itself has been exercised.
 */
export function runTsEntry(entry: string, args: string[], env: Record<string, string>): Promise<ScriptRun> {
  return run(process.execPath, ['--import', 'tsx', entry, ...args], env);
}

function run(command: string, args: string[], env: Record<string, string>): Promise<ScriptRun> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      // npm itself warns about this machine's npmrc on stderr; that line is not the script's.
      const own = stderr.replace(/^npm warn .*\n/gm, '');
      resolve({ code: code ?? -1, stdout, stderr: own, output: `${stdout}${own}` });
    });
  });
}

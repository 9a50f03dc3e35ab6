// The e2e step of `npm test`: real Chromium (Debian's, never a downloaded one) against the compiled server.
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { ensureBuilt } from './build.mjs';

const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
if (!fs.existsSync(chromium)) {
  console.log(
    `e2e tests skipped: no Chromium at ${chromium} (install it: apt-get update && apt-get install -y chromium)`,
  );
  process.exit(0);
}
// What production runs: the compiled server and the built web app (each built only when missing or stale).
await ensureBuilt();
const res = spawnSync(
  process.execPath,
  ['node_modules/vitest/vitest.mjs', 'run', '--config', 'vitest.e2e.config.ts', ...process.argv.slice(2)],
  {
    stdio: 'inherit',
    env: { ...process.env, CHROMIUM_PATH: chromium },
  },
);
process.exit(res.status ?? 1);

import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('closing an embedding thread', () => {
  it('waits for the run it has begun instead of aborting the process (it used to exit with 134)', () => {
    const child = spawnSync(process.execPath, ['--import', 'tsx', 'test/fixtures/embed-thread-close.ts'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(child.stderr).not.toContain('terminate called');
    expect(child.status, child.stderr).toBe(0);
    // Its caller had given up on the batch: it is refused, not left hanging.
    expect(child.stdout).toContain('closed mid-run; the batch: the embedding thread was closed');
  });
});

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AskIds } from './ask-serve';
import { LIFTED_QUESTION_RATE } from './limits';
import { percentile } from './percentile';

// The server as `npm start` runs it: the compiled build (dist/server, no TypeScript loader in the process or its
// threads), started on the bench's database. What a user meets after a restart is timed whole here — the first ask
// includes the statistics and the library index it builds, which the in-process figures above time apart — and
// the memory is the process's as the operating system counts it, threads included.

const PORT = 5077;

function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

export async function askShipped(dataDir: string, ids: AskIds, secret: string, questions: string[]): Promise<void> {
  const child = spawn(process.execPath, ['dist/server/main.js'], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      SESSION_SECRET: secret,
      PORT: String(PORT),
      LOG_LEVEL: 'warn',
      ...LIFTED_QUESTION_RATE,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('the compiled server did not start');
  const base = `http://127.0.0.1:${PORT}`;
  const ask = async (question: string) => {
    const res = await fetch(`${base}/api/qa/ask`, {
      method: 'POST',
      headers: { cookie: ids.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ question }),
    });
    if (!res.ok) throw new Error(`POST /api/qa/ask answered ${res.status}: ${await res.text()}`);
    await res.json();
  };
  try {
    const started = performance.now();
    for (;;) {
      const up = await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (child.exitCode !== null) throw new Error(`the compiled server exited with code ${child.exitCode}`);
      await sleep(100);
    }
    console.log(`\nThe compiled server (dist/server/main.js, as npm start runs it), started on that database:`);
    console.log(
      `  listening after ${((performance.now() - started) / 1000).toFixed(1)} s, RSS ${rssOf(pid).toFixed(0)} MB`,
    );
    let t0 = performance.now();
    await ask('Do you keep an inventory of hardware assets?');
    console.log(
      `  first ask after the start, whole (statistics, library index, vector index begun): ${(performance.now() - t0).toFixed(0)} ms`,
    );
    // Asks spread over the vector index's load, then the measured ones once it is in.
    t0 = performance.now();
    for (let i = 0; performance.now() - t0 < 30_000; i += 1) {
      await ask(`How often do you review access for team ${i}?`);
      await sleep(250);
    }
    const times: number[] = [];
    for (const q of questions) {
      const s = performance.now();
      await ask(q);
      times.push(performance.now() - s);
    }
    console.log(
      `  ${questions.length} asks after 30 s: p50 ${percentile(times, 0.5).toFixed(1)} / p95 ${percentile(times, 0.95).toFixed(1)} ms; ` +
        `RSS ${rssOf(pid).toFixed(0)} MB (target ≤ 700 MB with the models and this workspace loaded)`,
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

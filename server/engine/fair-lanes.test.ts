import { describe, expect, it } from 'vitest';
import { FairLanes } from './fair-lanes';

/** A step that runs until the test lets it finish, recording when it started. */
function gate(log: string[], name: string) {
  let open!: () => void;
  const done = new Promise<void>((r) => (open = r));
  return { step: async () => (log.push(name), done), open: () => open() };
}

const turn = () => new Promise((r) => setImmediate(r));

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await turn();
}

describe('fair lanes', () => {
  it('give the next free lane to an organization that waited, not to the one that queued the most', async () => {
    const lanes = new FairLanes(1);
    const log: string[] = [];
    const flood = Array.from({ length: 20 }, (_, i) => gate(log, `a${i}`));
    const running = flood.map((g) => lanes.run('org-a', g.step));
    await turn();
    const quiet = gate(log, 'b0');
    const quietRun = lanes.run('org-b', quiet.step);
    // a0 holds the lane; when it ends, b0 goes before a1..a19.
    flood[0]?.open();
    await running[0];
    await until(() => log.length === 2);
    expect(log).toEqual(['a0', 'b0']);
    quiet.open();
    await quietRun;
    for (const g of flood) g.open();
    await Promise.all(running);
    expect(log).toHaveLength(21);
    expect(log.filter((n) => n.startsWith('a'))).toEqual(flood.map((_, i) => `a${i}`));
  });

  it('keep a lane free for another organization: its step starts while the busy one’s is still running', async () => {
    const lanes = new FairLanes(3);
    const log: string[] = [];
    const flood = Array.from({ length: 5 }, (_, i) => gate(log, `a${i}`));
    const running = flood.map((g) => lanes.run('org-a', g.step));
    await until(() => log.length === 2);
    const quiet = gate(log, 'b0');
    const quietRun = lanes.run('org-b', quiet.step);
    await until(() => log.includes('b0'));
    // Nothing of org-a has finished, yet b0 runs: org-a may hold two of the three lanes, never the third.
    expect(log).toEqual(['a0', 'a1', 'b0']);
    quiet.open();
    await quietRun;
    for (const g of flood) g.open();
    await Promise.all(running);
    expect(log).toHaveLength(6);
  });

  it('hold a busy organization to one lane while another has work, and give it its lanes back after', async () => {
    const lanes = new FairLanes(3);
    const log: string[] = [];
    const flood = Array.from({ length: 4 }, (_, i) => gate(log, `a${i}`));
    const running = flood.map((g) => lanes.run('org-a', g.step));
    await until(() => log.length === 2);
    const quiet = gate(log, 'b0');
    const quietRun = lanes.run('org-b', quiet.step);
    await until(() => log.includes('b0'));
    // a0 ends while b0 runs: org-a still has a1 running, which is its share while org-b has work.
    flood[0]?.open();
    await running[0];
    for (let i = 0; i < 5; i += 1) await turn();
    expect(log).toEqual(['a0', 'a1', 'b0']);
    // org-b is done: org-a may hold all lanes but one again.
    quiet.open();
    await quietRun;
    await until(() => log.includes('a2'));
    expect(log).toEqual(['a0', 'a1', 'b0', 'a2']);
    for (const g of flood) g.open();
    await Promise.all(running);
    expect(log).toHaveLength(5);
  });

  it('without yieldAlways, start a lone step at once and give the event loop a turn only before a backlogged key’s', async () => {
    const lanes = new FairLanes(2, { yieldAlways: false });
    let ticked = false;
    setImmediate(() => (ticked = true));
    let tickedBeforeLone: boolean | undefined;
    await lanes.run('quiet', async () => {
      tickedBeforeLone = ticked;
    });
    expect(tickedBeforeLone).toBe(false);
    // Three steps of one key on one lane: the second and third start after a turn, as other requests need one.
    const one = new FairLanes(1, { yieldAlways: false });
    const ticks: number[] = [];
    let count = 0;
    let stop = false;
    const tick = () => {
      count += 1;
      if (!stop) setImmediate(tick);
    };
    setImmediate(tick);
    await Promise.all(
      [0, 1, 2].map(() =>
        one.run('busy', async () => {
          ticks.push(count);
        }),
      ),
    );
    stop = true;
    expect(new Set(ticks).size).toBe(3);
  });

  it('let an organization run all the steps of a question before a busier one runs its next', async () => {
    const lanes = new FairLanes(1);
    const order: string[] = [];
    const step = (name: string, ms: number) => async () => {
      order.push(name);
      await new Promise((r) => setTimeout(r, ms));
    };
    // A busy organization's long steps, back to back.
    const busy = (async () => {
      for (let i = 0; i < 6; i += 1) await lanes.run('busy', step(`busy${i}`, 15));
    })();
    await turn();
    await turn();
    // A quiet organization's question: three short steps, each queued after the previous one ends.
    const quiet = (async () => {
      for (let i = 0; i < 3; i += 1) await lanes.run('quiet', step(`quiet${i}`, 1));
    })();
    await Promise.all([busy, quiet]);
    const first = order.indexOf('quiet0');
    // At most one busy step runs between the quiet question's steps.
    expect(order.slice(first, first + 3)).toEqual(['quiet0', 'quiet1', 'quiet2']);
  });

  it('let other work of the process run between steps', async () => {
    const lanes = new FairLanes(2);
    // Another piece of the process's work that needs a turn of the event loop for each of its ticks.
    let ticks = 0;
    let stop = false;
    const tick = () => {
      ticks += 1;
      if (!stop) setImmediate(tick);
    };
    setImmediate(tick);
    // Steps that never wait on I/O, as queries of the embedded database: without a turn of the event loop between
    // them, the interval above could not run until all of them ended.
    const seen: number[] = [];
    await Promise.all(
      Array.from({ length: 30 }, () =>
        lanes.run('org', async () => {
          seen.push(ticks);
        }),
      ),
    );
    stop = true;
    expect(new Set(seen).size).toBeGreaterThan(10);
  });

  it('run every step once, also when a step fails', async () => {
    const lanes = new FairLanes(2);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        lanes.run(`org-${i % 3}`, async () => {
          if (i === 4) throw new Error('boom');
          return i;
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(9);
    expect(lanes.queued).toBe(0);
  });
});
